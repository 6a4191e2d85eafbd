// The frame contract every operation keeps (scale, scale with conversion, colorspace, denoise):
// what the chain runs its stages through, so that a frame goes from one operation to the next
// with no host wait between them. The C API's process / submit / send calls are built on the
// same operations.
#pragma once
#include <string>
#include <vector>

#include "clvf/clvf.h"
#include "runtime/cl.hpp"

namespace clvf::detail {

class Operation {
 public:
  virtual ~Operation() = default;
  // Takes the stream's next frame, `src` (null: the end of the stream), and when that makes an
  // output ready submits it into `dst`: its commands start after `wait` (and after the frames
  // submitted before it) and the host waits for nothing. Returns whether an output was submitted;
  // it is in flight until complete() (at most CLVF_MAX_IN_FLIGHT are), and src and dst must stay
  // valid until then. An operation that gives one output per frame gives it for every frame;
  // denoise with a temporal radius t gives frame n's once frame n + t or the end has been taken.
  // When no output is submitted the source has been read before this returns.
  virtual bool submit(const clvf_frame* src, const clvf_frame& dst, const std::vector<cl::Event>& wait) = 0;
  // The last commands of the newest output submitted (for what reads it next to wait on).
  virtual const std::vector<cl::Event>& submitted() const = 0;
  // Finishes the oldest output in flight (a staged destination is copied to the caller's).
  virtual void complete() = 0;
  // Kernel times so far (profiling devices only; "" otherwise).
  virtual std::string profile_report() const = 0;
};

}  // namespace clvf::detail
