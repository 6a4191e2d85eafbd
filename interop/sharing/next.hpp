// The OpenCL functions the sharing code calls for its own work. In the clvf library they are the
// ICD loader's entry points. In the OpenCL layer (interop/layer.cpp) they are the next layer's
// (the target dispatch the loader gave clInitLayer): the loader sends every core call through the
// layer, so the layer's own calls must not go back through the loader.
#pragma once
#include <CL/cl_icd.h>

namespace clvf::detail::interop {

const cl_icd_dispatch& next_cl();
// The loader's entry points (what next_cl() is outside a layer): every function the sharing code
// calls, the rest null.
const cl_icd_dispatch& loader_cl();
// From clInitLayer, before any other call of the layer's.
void set_next_cl(const cl_icd_dispatch* table);

}  // namespace clvf::detail::interop
