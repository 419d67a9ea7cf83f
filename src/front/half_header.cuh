// cuda_fp16.h as warpdbg provides it (src/front/half.rs). `__half` is a built-in binary16 type that
// computes in float; each function rounds its float (or, for fma, double) result once to half.
typedef __half half;

struct __half2 {
    __half x;
    __half y;
    // One constructor with defaults (a default-constructed half2 is zero here, unset on the GPU).
    __host__ __device__ __half2(__half a = 0.0f, __half b = 0.0f) { x = a; y = b; }
};
typedef __half2 half2;

__host__ __device__ __half __float2half(float a) { return a; }
__host__ __device__ __half __float2half_rn(float a) { return a; }
__host__ __device__ __half __double2half(double a) { return a; }
__host__ __device__ float __half2float(__half a) { return a; }
__host__ __device__ __half __int2half_rn(int a) { return a; }
__host__ __device__ int __half2int_rz(__half a) { return a; }
__host__ __device__ __half __hadd(__half a, __half b) { return (float)a + (float)b; }
__host__ __device__ __half __hsub(__half a, __half b) { return (float)a - (float)b; }
__host__ __device__ __half __hmul(__half a, __half b) { return (float)a * (float)b; }
__host__ __device__ __half __hdiv(__half a, __half b) { return (float)a / (float)b; }
__host__ __device__ __half __hneg(__half a) { return -(float)a; }
__host__ __device__ __half __habs(__half a) { return fabsf(a); }
__host__ __device__ __half __hfma(__half a, __half b, __half c) { return (double)a * (double)b + (double)c; }
__host__ __device__ __half __hmax(__half a, __half b) { return fmaxf(a, b); }
__host__ __device__ __half __hmin(__half a, __half b) { return fminf(a, b); }
__host__ __device__ bool __heq(__half a, __half b) { return (float)a == (float)b; }
__host__ __device__ bool __hne(__half a, __half b) { return (float)a != (float)b; }
__host__ __device__ bool __hlt(__half a, __half b) { return (float)a < (float)b; }
__host__ __device__ bool __hle(__half a, __half b) { return (float)a <= (float)b; }
__host__ __device__ bool __hgt(__half a, __half b) { return (float)a > (float)b; }
__host__ __device__ bool __hge(__half a, __half b) { return (float)a >= (float)b; }
__host__ __device__ bool __hisnan(__half a) { return (float)a != (float)a; }

__host__ __device__ __half2 __float2half2_rn(float a) { return __half2(a, a); }
__host__ __device__ __half2 __floats2half2_rn(float a, float b) { return __half2(a, b); }
__host__ __device__ __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__host__ __device__ __half2 __half2half2(__half a) { return __half2(a, a); }
__host__ __device__ __half2 __float22half2_rn(float2 a) { return __half2(a.x, a.y); }
__host__ __device__ float2 __half22float2(__half2 a) { return make_float2(a.x, a.y); }
__host__ __device__ float __low2float(__half2 a) { return a.x; }
__host__ __device__ float __high2float(__half2 a) { return a.y; }
__host__ __device__ __half __low2half(__half2 a) { return a.x; }
__host__ __device__ __half __high2half(__half2 a) { return a.y; }
__host__ __device__ __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__host__ __device__ __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__host__ __device__ __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
__host__ __device__ __half2 __hadd2(__half2 a, __half2 b) { return __half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
__host__ __device__ __half2 __hsub2(__half2 a, __half2 b) { return __half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
__host__ __device__ __half2 __hmul2(__half2 a, __half2 b) { return __half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
__host__ __device__ __half2 __h2div(__half2 a, __half2 b) { return __half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
__host__ __device__ __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
__host__ __device__ __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
    return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__host__ __device__ __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
__host__ __device__ __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
__host__ __device__ __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
__host__ __device__ __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
__host__ __device__ __half2 operator-(__half2 a) { return __hneg2(a); }
