// Under AddressSanitizer, the leak check runs when the last test has finished, while the
// library's and PoCL's threads are idle, instead of at exit, where static destructors join
// worker threads: LeakSanitizer's tracer stopping threads that are exiting crashed it
// ("Tracer caught signal 11") in CI after every test had passed. A leak fails the run as before;
// LeakSanitizer does not check again at exit. The same crash came back at this check in the fault
// sweeps: its cause there was libasan's dynamic-TLS interceptor (scripts/sanitize.sh, which turns
// it off).
#if defined(__SANITIZE_ADDRESS__)
#include <gtest/gtest.h>
#include <sanitizer/lsan_interface.h>

namespace {
class LeakCheckAtEnd : public ::testing::Environment {
 public:
  void TearDown() override { __lsan_do_leak_check(); }
};
[[maybe_unused]] ::testing::Environment* const registered =
    ::testing::AddGlobalTestEnvironment(new LeakCheckAtEnd);
}  // namespace
#endif
