// The shared library is clvf_core with only the C API (CLVF_API) visible.
