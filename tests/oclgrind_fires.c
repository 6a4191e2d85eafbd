/* Proof that the Oclgrind checks the kernel-checker runs rely on do fire: kernels with a
 * deliberate fault, run on the device clvf opens (Oclgrind under ctest): `oob` writes one element
 * past its buffer, `race` has every work-item write the same global element. The ctest entries
 * pass only when Oclgrind reports "Invalid write" and "data race" respectively.
 *   oclgrind_fires oob|race */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clvf/clvf.h>
#include <stdio.h>
#include <string.h>

static const char *kSource =
    "__kernel void oob(__global int *out) { out[get_global_id(0) + 1] = 1; }\n"
    "__kernel void race(__global int *out) { out[0] = (int)get_global_id(0); }\n";

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    if (strcmp(which, "oob") && strcmp(which, "race")) {
        fprintf(stderr, "usage: oclgrind_fires oob|race\n");
        return 2;
    }
    clvf_device *dev = NULL;
    cl_context ctx;
    cl_device_id id;
    cl_command_queue q;
    cl_int err;
    if (clvf_device_open(NULL, &dev) != CLVF_OK || clvf_device_handles(dev, &ctx, &id, &q) != CLVF_OK) {
        fprintf(stderr, "oclgrind_fires: %s\n", clvf_last_error());
        return 1;
    }
    cl_program prog = clCreateProgramWithSource(ctx, 1, &kSource, NULL, &err);
    if (err || clBuildProgram(prog, 1, &id, "", NULL, NULL)) {
        fprintf(stderr, "oclgrind_fires: build failed\n");
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, which, &err);
    const size_t n = 16;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    clSetKernelArg(k, 0, sizeof(buf), &buf);
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL);
    clFinish(q);
    printf("oclgrind_fires: %s kernel ran on %s (enqueue status %d)\n", which, clvf_device_name(dev), err);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clvf_device_release(dev);
    return 0;
}
