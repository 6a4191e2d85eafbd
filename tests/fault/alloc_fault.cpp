// Test-only allocation fault injection, linked into the test executable: replaces operator new,
// counts the calls made from libclvf's own code after clvf_alloc_fault_arm(N) and makes the N-th
// throw std::bad_alloc, as an exhausted heap would (arm with LONG_MAX to count only, 0 to stop).
// Being the executable's, it comes before AddressSanitizer's operator new too, so the sweeps run
// leak-checked there; under valgrind, whose operator new still comes first, this one is never
// called (clvf_alloc_fault_calls() stays 0).
#include <dlfcn.h>
#include <link.h>

#include <cstdint>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include "cl_fault.h"

namespace {
std::atomic<long> calls{0}, armed_at{0};
std::atomic<bool> fired{false};

// libclvf.so's code, found once (it is loaded with the program): a range test per allocation,
// where dladdr would search symbol tables on every allocation of the process.
std::atomic<uintptr_t> code_begin{0}, code_end{0};

int find_clvf(struct dl_phdr_info* info, size_t, void*) {
  if (!info->dlpi_name || !std::strstr(info->dlpi_name, "libclvf.so")) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
      code_end = info->dlpi_addr + ph.p_vaddr + ph.p_memsz;
      code_begin = info->dlpi_addr + ph.p_vaddr;
    }
  }
  return 1;
}

bool from_clvf(void* caller) {
  if (!code_begin.load()) dl_iterate_phdr(find_clvf, nullptr);
  const uintptr_t a = reinterpret_cast<uintptr_t>(caller);
  return a >= code_begin.load() && a < code_end.load();
}

void* allocate(std::size_t n, void* caller) {
  if (armed_at.load() != 0 && from_clvf(caller) && ++calls == armed_at.load()) {
    fired = true;
    throw std::bad_alloc();
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
}  // namespace

void clvf_alloc_fault_arm(long n) { calls = 0, armed_at = n, fired = false; }
long clvf_alloc_fault_calls(void) { return calls.load(); }
int clvf_alloc_fault_fired(void) { return fired.load(); }

void* operator new(std::size_t n) { return allocate(n, __builtin_return_address(0)); }
void* operator new[](std::size_t n) { return allocate(n, __builtin_return_address(0)); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
// The other forms, so that every allocation and release of the process goes through malloc/free
// here (under ASan its own forms would otherwise pair with these).
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return allocate(n, __builtin_return_address(0));
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept { return operator new(n, t); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void* operator new(std::size_t n, std::align_val_t a) {
  const std::size_t al = static_cast<std::size_t>(a);
  if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
