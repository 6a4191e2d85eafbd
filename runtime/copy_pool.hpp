// A few long-lived threads for the copies between frames and pinned staging memory (one thread
// copies about 8 GB/s, less than a PCIe link moves): created once, not per frame.
#pragma once
#include <cstddef>
#include <functional>

namespace clvf {

// Runs part(0) .. part(parts - 1), part 0 on the calling thread and the others on the pool, and
// returns when all are done. Safe to call from several threads.
void run_parts(size_t parts, const std::function<void(size_t)>& part);
// Threads a copy is split over: CLVF_COPY_THREADS (1 to 8), else 4 or the cores there are.
unsigned copy_threads();

}  // namespace clvf
