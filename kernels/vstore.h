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

// 16 pixels of 4 8-bit channels (values already rounded and clamped to 0..255), interleaved:
// on little-endian devices each pixel packed in a uint, channel a in its low byte.
void vstore16_px4(float16 a, float16 b, float16 c, float16 d, __global uchar *p) {
#ifdef __ENDIAN_LITTLE__
  const uint16 v = convert_uint16(a) | convert_uint16(b) << 8 | convert_uint16(c) << 16 | convert_uint16(d) << 24;
  if (((uintptr_t)p & 3) == 0) {
    vstore16(v, 0, (__global uint *)p);
  } else {
    vstore16(as_uchar16(v.s0123), 0, p);
    vstore16(as_uchar16(v.s4567), 0, p + 16);
    vstore16(as_uchar16(v.s89ab), 0, p + 32);
    vstore16(as_uchar16(v.scdef), 0, p + 48);
  }
#else
  float t[4][16];
  vstore16(a, 0, t[0]);
  vstore16(b, 0, t[1]);
  vstore16(c, 0, t[2]);
  vstore16(d, 0, t[3]);
  for (int k = 0; k < 64; ++k) p[k] = (uchar)t[k % 4][k / 4];
#endif
}
