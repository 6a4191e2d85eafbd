/* Test-only fault injection for OpenCL: a library linked ahead of the ICD loader that interposes
 * every OpenCL function libclvf uses, counts the calls, and makes the N-th one after
 * clvf_fault_arm(N) fail as a driver would: creators return NULL with CL_OUT_OF_HOST_MEMORY,
 * everything else CL_OUT_OF_RESOURCES (a queue call failing so is how a lost device shows).
 * Retains and releases are still performed and then report the error, so that the fault itself
 * leaks nothing. The real functions are found with dlsym(RTLD_NEXT). */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "cl_fault.h"

static atomic_long calls, armed_at, host_waits, first_wait;
static const char *_Atomic fired;
static _Thread_local long this_call;  /* the number fault() gave this thread's current call */

void clvf_fault_arm(long n)
{
    atomic_store(&calls, 0);
    atomic_store(&host_waits, 0);
    atomic_store(&first_wait, 0);
    atomic_store(&armed_at, n);
    atomic_store(&fired, NULL);
}

long clvf_fault_calls(void) { return atomic_load(&calls); }

long clvf_fault_host_waits(void) { return atomic_load(&host_waits); }

long clvf_fault_first_wait(void) { return atomic_load(&first_wait); }

const char *clvf_fault_fired(void) { return atomic_load(&fired); }

/* Whether this call is the one to fail. */
static int fault(const char *name)
{
    const long n = atomic_fetch_add(&calls, 1) + 1;
    this_call = n;
    if (n != atomic_load(&armed_at))
        return 0;
    atomic_store(&fired, name);
    return 1;
}

static void *real(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "cl_fault: %s not found after this library\n", name);
        abort();
    }
    return f;
}

#define REAL(name) ((__typeof__(&name))real(#name))

/* Functions returning cl_int: fail without calling through. */
#define FAIL_INT(name, params, args)                  \
    cl_int name params                                \
    {                                                 \
        if (fault(#name))                             \
            return CL_OUT_OF_RESOURCES;               \
        return REAL(name) args;                       \
    }

/* Retains and releases: done, then the error reported. */
#define AFTER_INT(name, params, args)                 \
    cl_int name params                                \
    {                                                 \
        const cl_int r = REAL(name) args;             \
        return fault(#name) ? CL_OUT_OF_RESOURCES : r; \
    }

/* Creators: NULL and the error through errcode_ret. */
#define FAIL_CREATE(type, name, params, args)         \
    type name params                                  \
    {                                                 \
        if (fault(#name)) {                           \
            if (errcode_ret)                          \
                *errcode_ret = CL_OUT_OF_HOST_MEMORY; \
            return NULL;                              \
        }                                             \
        return REAL(name) args;                       \
    }

FAIL_INT(clGetPlatformIDs, (cl_uint n, cl_platform_id *p, cl_uint *num), (n, p, num))
FAIL_INT(clGetPlatformInfo, (cl_platform_id p, cl_platform_info i, size_t s, void *v, size_t *r), (p, i, s, v, r))
FAIL_INT(clGetDeviceIDs, (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d, cl_uint *num),
         (p, t, n, d, num))
FAIL_INT(clGetDeviceInfo, (cl_device_id d, cl_device_info i, size_t s, void *v, size_t *r), (d, i, s, v, r))
FAIL_INT(clGetCommandQueueInfo, (cl_command_queue q, cl_command_queue_info i, size_t s, void *v, size_t *r),
         (q, i, s, v, r))
FAIL_INT(clGetEventInfo, (cl_event e, cl_event_info i, size_t s, void *v, size_t *r), (e, i, s, v, r))
FAIL_INT(clGetEventProfilingInfo, (cl_event e, cl_profiling_info i, size_t s, void *v, size_t *r), (e, i, s, v, r))
FAIL_INT(clGetProgramInfo, (cl_program p, cl_program_info i, size_t s, void *v, size_t *r), (p, i, s, v, r))
FAIL_INT(clGetProgramBuildInfo, (cl_program p, cl_device_id d, cl_program_build_info i, size_t s, void *v, size_t *r),
         (p, d, i, s, v, r))
FAIL_INT(clGetSupportedImageFormats,
         (cl_context c, cl_mem_flags f, cl_mem_object_type t, cl_uint n, cl_image_format *fmts, cl_uint *num),
         (c, f, t, n, fmts, num))
FAIL_INT(clBuildProgram,
         (cl_program p, cl_uint n, const cl_device_id *d, const char *o,
          void(CL_CALLBACK *cb)(cl_program, void *), void *u),
         (p, n, d, o, cb, u))
FAIL_INT(clSetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))
/* OpenCL 2.0 (libclvf looks them up at run time, and finds these first). The 1.2 headers do not
 * declare them. */
void *CL_API_CALL clSVMAlloc(cl_context c, cl_mem_flags f, size_t s, cl_uint a);
void CL_API_CALL clSVMFree(cl_context c, void *p);
cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel k, cl_uint i, const void *p);
void *CL_API_CALL clSVMAlloc(cl_context c, cl_mem_flags f, size_t s, cl_uint a)
{
    return fault("clSVMAlloc") ? NULL : REAL(clSVMAlloc)(c, f, s, a);
}
void CL_API_CALL clSVMFree(cl_context c, void *p)
{
    fault("clSVMFree"); /* counted; a free cannot fail */
    REAL(clSVMFree)(c, p);
}
FAIL_INT(clSetKernelArgSVMPointer, (cl_kernel k, cl_uint i, const void *p), (k, i, p))
FAIL_INT(clEnqueueNDRangeKernel,
         (cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off, const size_t *g, const size_t *l,
          cl_uint n, const cl_event *w, cl_event *e),
         (q, k, dim, off, g, l, n, w, e))
/* Blocking reads and writes are host waits too. */
#define FAIL_INT_BLOCKING(name, params, args)         \
    cl_int name params                                \
    {                                                 \
        if (fault(#name))                             \
            return CL_OUT_OF_RESOURCES;               \
        if (block)                                    \
            atomic_fetch_add(&host_waits, 1);         \
        return REAL(name) args;                       \
    }
FAIL_INT_BLOCKING(clEnqueueReadBuffer,
         (cl_command_queue q, cl_mem b, cl_bool block, size_t off, size_t s, void *p, cl_uint n, const cl_event *w,
          cl_event *e),
         (q, b, block, off, s, p, n, w, e))
FAIL_INT_BLOCKING(clEnqueueWriteBuffer,
         (cl_command_queue q, cl_mem b, cl_bool block, size_t off, size_t s, const void *p, cl_uint n,
          const cl_event *w, cl_event *e),
         (q, b, block, off, s, p, n, w, e))
FAIL_INT(clEnqueueFillBuffer,
         (cl_command_queue q, cl_mem b, const void *pat, size_t ps, size_t off, size_t s, cl_uint n,
          const cl_event *w, cl_event *e),
         (q, b, pat, ps, off, s, n, w, e))
FAIL_INT(clEnqueueUnmapMemObject, (cl_command_queue q, cl_mem m, void *p, cl_uint n, const cl_event *w, cl_event *e),
         (q, m, p, n, w, e))
FAIL_INT(clEnqueueMarkerWithWaitList, (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
FAIL_INT(clEnqueueBarrierWithWaitList, (cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e), (q, n, w, e))
FAIL_INT(clFlush, (cl_command_queue q), (q))
cl_int clFinish(cl_command_queue q)
{
    if (fault("clFinish"))
        return CL_OUT_OF_RESOURCES;
    atomic_fetch_add(&host_waits, 1);
    return REAL(clFinish)(q);
}

/* A wait for events all complete already does not hold the host: only the others count. */
cl_int clWaitForEvents(cl_uint n, const cl_event *e)
{
    if (fault("clWaitForEvents"))
        return CL_OUT_OF_RESOURCES;
    long none = 0;
    atomic_compare_exchange_strong(&first_wait, &none, this_call);
    for (cl_uint i = 0; e && i < n; ++i) {
        cl_int status = CL_COMPLETE;
        REAL(clGetEventInfo)(e[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
        if (status > CL_COMPLETE) {
            atomic_fetch_add(&host_waits, 1);
            break;
        }
    }
    return REAL(clWaitForEvents)(n, e);
}

AFTER_INT(clRetainCommandQueue, (cl_command_queue q), (q))
AFTER_INT(clRetainContext, (cl_context c), (c))
AFTER_INT(clRetainDevice, (cl_device_id d), (d))
AFTER_INT(clRetainEvent, (cl_event e), (e))
AFTER_INT(clRetainMemObject, (cl_mem m), (m))
AFTER_INT(clRetainProgram, (cl_program p), (p))
AFTER_INT(clReleaseCommandQueue, (cl_command_queue q), (q))
AFTER_INT(clReleaseContext, (cl_context c), (c))
AFTER_INT(clReleaseDevice, (cl_device_id d), (d))
AFTER_INT(clReleaseEvent, (cl_event e), (e))
AFTER_INT(clReleaseKernel, (cl_kernel k), (k))
AFTER_INT(clReleaseMemObject, (cl_mem m), (m))
AFTER_INT(clReleaseProgram, (cl_program p), (p))

FAIL_CREATE(cl_context, clCreateContext,
            (const cl_context_properties *props, cl_uint n, const cl_device_id *d,
             void(CL_CALLBACK *cb)(const char *, const void *, size_t, void *), void *u, cl_int *errcode_ret),
            (props, n, d, cb, u, errcode_ret))
FAIL_CREATE(cl_command_queue, clCreateCommandQueue,
            (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *errcode_ret), (c, d, p, errcode_ret))
FAIL_CREATE(cl_mem, clCreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *errcode_ret),
            (c, f, s, h, errcode_ret))
FAIL_CREATE(cl_program, clCreateProgramWithSource,
            (cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *errcode_ret), (c, n, s, l, errcode_ret))
FAIL_CREATE(cl_program, clCreateProgramWithBinary,
            (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l, const unsigned char **b, cl_int *st,
             cl_int *errcode_ret),
            (c, n, d, l, b, st, errcode_ret))
FAIL_CREATE(cl_kernel, clCreateKernel, (cl_program p, const char *name, cl_int *errcode_ret), (p, name, errcode_ret))
FAIL_CREATE(void *, clEnqueueMapBuffer,
            (cl_command_queue q, cl_mem b, cl_bool block, cl_map_flags f, size_t off, size_t s, cl_uint n,
             const cl_event *w, cl_event *e, cl_int *errcode_ret),
            (q, b, block, f, off, s, n, w, e, errcode_ret))
