/* The device's measured ceilings, for the floors bench/floors.sh puts beside kernel times:
 * copy bandwidth (a buffer copy, bytes read plus written per second), native_exp2 rate (the
 * one operation NL-means cannot avoid per pixel and offset) and float multiply-add rate (what a
 * resampling filter's taps cost). Device: as clvf picks it (CLVF_DEVICE). Prints
 * "bandwidth_gbs N", "exp2_gps N", "fma_gps N" (10^9 per second) and "gpu 0|1". */
#include <stdio.h>
#include <stdlib.h>

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <clvf/clvf.h>

static const char *kSource =
    "__kernel void exps(__global float *out, float a) {\n"
    "  float s0 = a + get_global_id(0) * 1e-9f, s1 = s0 + 0.1f, s2 = s0 + 0.2f, s3 = s0 + 0.3f;\n"
    "  float s4 = s0 + 0.4f, s5 = s0 + 0.5f, s6 = s0 + 0.6f, s7 = s0 + 0.7f;\n"
    "  for (int i = 0; i < 256; ++i) {\n"
    "    s0 = native_exp2(-s0); s1 = native_exp2(-s1); s2 = native_exp2(-s2); s3 = native_exp2(-s3);\n"
    "    s4 = native_exp2(-s4); s5 = native_exp2(-s5); s6 = native_exp2(-s6); s7 = native_exp2(-s7);\n"
    "  }\n"
    "  out[get_global_id(0)] = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;\n"
    "}\n"
    /* Eight independent chains of 16-lane multiply-adds: enough to cover the latency of a CPU's
     * vector units, and on GPUs 128 a work-item. */
    "__kernel void fmas(__global float *out, float a) {\n"
    "  float16 s0 = (float16)(a + get_global_id(0) * 1e-9f), s1 = s0 + 0.1f, s2 = s0 + 0.2f, s3 = s0 + 0.3f;\n"
    "  float16 s4 = s0 + 0.4f, s5 = s0 + 0.5f, s6 = s0 + 0.6f, s7 = s0 + 0.7f;\n"
    "  const float16 m = 0.999f, c = 1e-3f;\n"
    "  for (int i = 0; i < 512; ++i) {\n"
    "    s0 = fma(s0, m, c); s1 = fma(s1, m, c); s2 = fma(s2, m, c); s3 = fma(s3, m, c);\n"
    "    s4 = fma(s4, m, c); s5 = fma(s5, m, c); s6 = fma(s6, m, c); s7 = fma(s7, m, c);\n"
    "  }\n"
    "  const float16 s = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;\n"
    "  const float8 h = s.lo + s.hi;\n"
    "  const float4 q = h.lo + h.hi;\n"
    "  out[get_global_id(0)] = q.x + q.y + q.z + q.w;\n"
    "}\n";

static int check(cl_int err, const char *what)
{
    if (err != CL_SUCCESS) {
        fprintf(stderr, "device_floor: %s failed (OpenCL error %d)\n", what, err);
        exit(1);
    }
    return 0;
}

/* Seconds between an event's start and end. */
static double event_seconds(cl_event e)
{
    cl_ulong t0, t1;
    check(clWaitForEvents(1, &e), "clWaitForEvents");
    check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL), "profiling start");
    check(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL), "profiling end");
    clReleaseEvent(e);
    return (double)(t1 - t0) * 1e-9;
}

/* The fastest of three runs (after one to warm up) of kernel `name` over `items` work-items. */
static double best_run(cl_command_queue q, cl_program prog, const char *name, cl_mem out, size_t items)
{
    cl_int err;
    cl_kernel k = clCreateKernel(prog, name, &err);
    check(err, "clCreateKernel");
    const float seed = 0.5f;
    check(clSetKernelArg(k, 0, sizeof(out), &out), "clSetKernelArg");
    check(clSetKernelArg(k, 1, sizeof(seed), &seed), "clSetKernelArg");
    double best = 1e30;
    for (int i = 0; i < 4; i++) {
        cl_event e;
        check(clEnqueueNDRangeKernel(q, k, 1, NULL, &items, NULL, 0, NULL, &e), "clEnqueueNDRangeKernel");
        const double t = event_seconds(e);
        if (i > 0 && t < best) best = t;
    }
    clReleaseKernel(k);
    return best;
}

int main(void)
{
    clvf_device *dev = NULL;
    cl_context ctx;
    cl_device_id id;
    cl_int err;
    if (clvf_device_open(NULL, &dev) != CLVF_OK || clvf_device_handles(dev, &ctx, &id, NULL) != CLVF_OK) {
        fprintf(stderr, "device_floor: %s\n", clvf_last_error());
        return 1;
    }
    cl_command_queue q = clCreateCommandQueue(ctx, id, CL_QUEUE_PROFILING_ENABLE, &err);
    check(err, "clCreateCommandQueue");

    const size_t bytes = (size_t)256 << 20;
    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    check(err, "clCreateBuffer");
    const unsigned char zero = 0;
    check(clEnqueueFillBuffer(q, a, &zero, 1, 0, bytes, 0, NULL, NULL), "clEnqueueFillBuffer");
    double best = 1e30;
    for (int i = 0; i < 6; i++) {
        cl_event e;
        check(clEnqueueCopyBuffer(q, i % 2 ? b : a, i % 2 ? a : b, 0, 0, bytes, 0, NULL, &e), "clEnqueueCopyBuffer");
        const double t = event_seconds(e);
        if (i > 0 && t < best) best = t;
    }
    printf("bandwidth_gbs %.1f\n", 2.0 * bytes / best * 1e-9);

    cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
    check(err, "clCreateProgramWithSource");
    check(clBuildProgram(prog, 1, &id, "", NULL, NULL), "clBuildProgram");
    cl_uint units = 1;
    clGetDeviceInfo(id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, NULL);
    const size_t items = (size_t)units * 2048;
    cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, items * sizeof(float), NULL, &err);
    check(err, "clCreateBuffer");
    printf("exp2_gps %.1f\n", (double)items * 256 * 8 / best_run(q, prog, "exps", out, items) * 1e-9);
    printf("fma_gps %.1f\n", (double)items * 512 * 8 * 16 / best_run(q, prog, "fmas", out, items) * 1e-9);
    cl_device_type type = 0;
    clGetDeviceInfo(id, CL_DEVICE_TYPE, sizeof(type), &type, NULL);
    printf("gpu %d\n", (type & CL_DEVICE_TYPE_GPU) != 0);

    clReleaseMemObject(out);
    clReleaseProgram(prog);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clvf_device_release(dev);
    return 0;
}
