// A few long-lived threads for the copies between frames and pinned staging memory (one thread
// copies about 8 GB/s, less than a PCIe link moves): created once, not per frame.
#pragma once
#include <cstddef>

#include "runtime/function_ref.hpp"

namespace clvf::detail {

// Runs part(0) .. part(parts - 1) on the calling thread and the pool's, and returns when all are
// done. Safe to call from several threads; allocates nothing.
void run_parts(size_t parts, FunctionRef<void(size_t)> part);
// Threads a copy is split over: CLVF_COPY_THREADS (1 to 8), else 4 or the cores there are.
unsigned copy_threads();

}  // namespace clvf::detail
