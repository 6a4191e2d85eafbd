// 16-sample stores for CPU kernels. PoCL writes a uchar16 or ushort16 vstore sample by sample;
// as uints (where the address is 4-byte aligned, the common case) it is a single store.

void vstore16_u8(uchar16 v, __global uchar *p) {
  if (((uintptr_t)p & 3) == 0)
    vstore4(as_uint4(v), 0, (__global uint *)p);
  else
    vstore16(v, 0, p);
}

void vstore16_u16(ushort16 v, __global ushort *p) {
  if (((uintptr_t)p & 3) == 0)
    vstore8(as_uint8(v), 0, (__global uint *)p);
  else
    vstore16(v, 0, p);
}
