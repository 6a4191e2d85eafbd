// The C API of chains (clvf_chain_*), over api/chain/.
#include "clvf/clvf.h"
#include "api/api_guard.hpp"
#include "api/chain/chain.hpp"

struct clvf_chain {
  clvf::detail::chain::Chain impl;
};

using clvf::detail::require;

extern "C" {

CLVF_API clvf_status clvf_chain_create(clvf_device* device, const char* chain, const clvf_stream* input,
                                       clvf_storage src_storage, clvf_storage dst_storage, clvf_chain** out) {
  return clvf::detail::api_call([&] {
    require(out, "clvf_chain_create: out");
    *out = nullptr;
    require(device, "clvf_chain_create: device");
    require(chain, "clvf_chain_create: chain");
    require(input, "clvf_chain_create: input");
    *out = new clvf_chain{clvf::detail::chain::Chain(device, chain, *input, src_storage, dst_storage)};
  });
}

CLVF_API clvf_status clvf_chain_plan(const char* chain, const clvf_stream* input, clvf_stream* output) {
  return clvf::detail::api_call([&] {
    require(chain, "clvf_chain_plan: chain");
    require(input, "clvf_chain_plan: input");
    require(output, "clvf_chain_plan: output");
    *output = clvf::detail::chain::plan_chain(chain, *input).output;
  });
}

CLVF_API clvf_status clvf_chain_output(const clvf_chain* chain, clvf_stream* output) {
  return clvf::detail::api_call([&] {
    require(chain, "clvf_chain_output: chain");
    require(output, "clvf_chain_output: output");
    *output = chain->impl.output();
  });
}

CLVF_API clvf_status clvf_chain_process(clvf_chain* chain, const clvf_frame* src, const clvf_frame* dst, int* got) {
  return clvf::detail::api_call([&] {
    require(got, "clvf_chain_process: got");
    *got = 0;
    require(chain, "clvf_chain_process: chain");
    require(dst, "clvf_chain_process: dst");
    *got = chain->impl.process(src, *dst) ? 1 : 0;
  });
}

CLVF_API clvf_status clvf_chain_submit(clvf_chain* chain, const clvf_frame* src, const clvf_frame* dst, int* got) {
  return clvf::detail::api_call([&] {
    require(got, "clvf_chain_submit: got");
    *got = 0;
    require(chain, "clvf_chain_submit: chain");
    require(dst, "clvf_chain_submit: dst");
    *got = chain->impl.submit(src, *dst) ? 1 : 0;
  });
}

CLVF_API clvf_status clvf_chain_complete(clvf_chain* chain) {
  return clvf::detail::api_call([&] {
    require(chain, "clvf_chain_complete: chain");
    chain->impl.complete();
  });
}

CLVF_API void clvf_chain_release(clvf_chain* chain) { delete chain; }

}  // extern "C"
