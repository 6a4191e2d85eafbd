/* Test-only OpenCL fault injection (cl_fault.c). */
#pragma once
#ifdef __cplusplus
extern "C" {
#endif
/* The n-th OpenCL call from now fails (0: none); the count starts again at 0. */
void clvf_fault_arm(long n);
/* OpenCL calls since the last arm. */
long clvf_fault_calls(void);
/* Host waits since the last arm: clFinish, blocking reads and writes, and clWaitForEvents on
 * events not all complete when it is called. */
long clvf_fault_host_waits(void);
/* The number of the first clWaitForEvents call since the last arm (0: none yet). */
long clvf_fault_first_wait(void);
/* The function that was made to fail since the last arm, or NULL. */
const char *clvf_fault_fired(void);

/* The same for operator new called from libclvf (alloc_fault.cpp): LONG_MAX counts only. */
void clvf_alloc_fault_arm(long n);
long clvf_alloc_fault_calls(void);
int clvf_alloc_fault_fired(void);
#ifdef __cplusplus
}
#endif
