// Texture objects over a CUDA array: point and linear sampling, the four address modes, a float4 texture and
// an 8-bit one read as normalized floats. Each kernel samples a row of coordinates and the host prints them.
#include <cstdio>
#include <cstring>

#define W 4
#define H 3
#define N 8

__global__ void sample2D(cudaTextureObject_t tex, float *out, float x0, float dx, float y0, float dy) {
    int i = threadIdx.x;
    out[i] = tex2D<float>(tex, x0 + i * dx, y0 + i * dy);
}

__global__ void sample2D4(cudaTextureObject_t tex, float4 *out, float x, float y) {
    int i = threadIdx.x;
    out[i] = tex2D<float4>(tex, x + 0.25f * i, y);
}

__global__ void sample1D(cudaTextureObject_t tex, float *out, float x0, float dx) {
    int i = threadIdx.x;
    float4 v = tex1D<float4>(tex, x0 + i * dx);
    out[i] = v.x + v.w;
}

cudaTextureObject_t makeTexture(cudaArray_t array, cudaTextureFilterMode filter, cudaTextureAddressMode mode,
                                int normalized, cudaTextureReadMode read) {
    cudaResourceDesc resDesc;
    memset(&resDesc, 0, sizeof(resDesc));
    resDesc.resType = cudaResourceTypeArray;
    resDesc.res.array.array = array;
    cudaTextureDesc texDesc;
    memset(&texDesc, 0, sizeof(texDesc));
    texDesc.addressMode[0] = mode;
    texDesc.addressMode[1] = mode;
    texDesc.filterMode = filter;
    texDesc.readMode = read;
    texDesc.normalizedCoords = normalized;
    texDesc.borderColor[0] = 0.5f;
    cudaTextureObject_t tex = 0;
    cudaError_t err = cudaCreateTextureObject(&tex, &resDesc, &texDesc, NULL);
    if (err != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorString(err));
    return tex;
}

void show(const char *label, float *h, float *d) {
    cudaMemcpy(h, d, N * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%-16s", label);
    for (int i = 0; i < N; i++) printf(" %10.6f", h[i]);
    printf("\n");
}

int main() {
    // A 4 x 3 image whose texels differ by 16 and 100, so each 1/256 step of a weight shows.
    float image[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) image[y][x] = 100.0f * y + 16.0f * x + (x == 3 ? 200.0f : 0.0f);
    cudaChannelFormatDesc channel = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    cudaMallocArray(&array, &channel, W, H);
    cudaMemcpy2DToArray(array, 0, 0, image, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);

    float *d_out, h_out[N];
    cudaMalloc(&d_out, N * sizeof(float));

    cudaTextureObject_t point = makeTexture(array, cudaFilterModePoint, cudaAddressModeClamp, 0, cudaReadModeElementType);
    sample2D<<<1, N>>>(point, d_out, -0.5f, 0.7f, 0.2f, 0.4f);
    show("point clamp", h_out, d_out);

    cudaTextureObject_t linear = makeTexture(array, cudaFilterModeLinear, cudaAddressModeClamp, 0, cudaReadModeElementType);
    sample2D<<<1, N>>>(linear, d_out, 0.5f, 0.3f, 0.5f, 0.0f);
    show("linear x", h_out, d_out);
    sample2D<<<1, N>>>(linear, d_out, 0.5f, 0.0f, 0.5f, 0.3f);
    show("linear y", h_out, d_out);
    // Both weights at once: 1/64 + 1/2048 past a texel's centre in x, 1/8 + 1/2048 in y.
    sample2D<<<1, N>>>(linear, d_out, 0.5f + 1.0f / 64 + 1.0f / 2048, 0.1f, 0.5f + 1.0f / 8 + 1.0f / 2048, 0.2f);
    show("bilinear", h_out, d_out);
    sample2D<<<1, N>>>(linear, d_out, 3.2f, 0.11f, 2.3f, 0.13f);
    show("linear edge", h_out, d_out);

    cudaTextureObject_t border = makeTexture(array, cudaFilterModeLinear, cudaAddressModeBorder, 0, cudaReadModeElementType);
    sample2D<<<1, N>>>(border, d_out, -0.75f, 0.35f, 1.5f, 0.0f);
    show("linear border", h_out, d_out);

    cudaTextureObject_t wrap = makeTexture(array, cudaFilterModePoint, cudaAddressModeWrap, 1, cudaReadModeElementType);
    sample2D<<<1, N>>>(wrap, d_out, -1.1f, 0.3f, 0.5f, 0.25f);
    show("point wrap", h_out, d_out);
    cudaTextureObject_t mirror = makeTexture(array, cudaFilterModeLinear, cudaAddressModeMirror, 1, cudaReadModeElementType);
    sample2D<<<1, N>>>(mirror, d_out, -0.9f, 0.3f, 0.4f, 0.15f);
    show("linear mirror", h_out, d_out);

    // A float4 texture read whole.
    float4 quad[2][2] = {{make_float4(1, 2, 3, 4), make_float4(5, 6, 7, 8)}, {make_float4(9, 10, 11, 12), make_float4(13, 14, 15, 16)}};
    cudaChannelFormatDesc channel4 = cudaCreateChannelDesc<float4>();
    cudaArray_t array4;
    cudaMallocArray(&array4, &channel4, 2, 2);
    cudaMemcpy2DToArray(array4, 0, 0, quad, 2 * sizeof(float4), 2 * sizeof(float4), 2, cudaMemcpyHostToDevice);
    cudaTextureObject_t tex4 = makeTexture(array4, cudaFilterModeLinear, cudaAddressModeClamp, 0, cudaReadModeElementType);
    float4 *d_quad, h_quad[4];
    cudaMalloc(&d_quad, 4 * sizeof(float4));
    sample2D4<<<1, 4>>>(tex4, d_quad, 0.75f, 1.0f);
    cudaMemcpy(h_quad, d_quad, 4 * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++) printf("float4 %d: %f %f %f %f\n", i, h_quad[i].x, h_quad[i].y, h_quad[i].z, h_quad[i].w);

    // An 8-bit RGBA row read as normalized floats, point sampled.
    uchar4 pixels[4] = {make_uchar4(0, 10, 20, 255), make_uchar4(51, 102, 153, 204), make_uchar4(255, 1, 2, 3), make_uchar4(7, 8, 9, 128)};
    cudaChannelFormatDesc channel8 = cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
    cudaArray_t array8;
    cudaMallocArray(&array8, &channel8, 4);
    cudaMemcpyToArray(array8, 0, 0, pixels, sizeof(pixels), cudaMemcpyHostToDevice);
    cudaTextureObject_t tex8 = makeTexture(array8, cudaFilterModePoint, cudaAddressModeClamp, 0, cudaReadModeNormalizedFloat);
    sample1D<<<1, N>>>(tex8, d_out, -0.5f, 0.6f);
    show("rgba8 x + w", h_out, d_out);

    // The array read back.
    float back[H][2];
    cudaMemcpy2DFromArray(back, 2 * sizeof(float), array, 2 * sizeof(float), 1, 2 * sizeof(float), 2, cudaMemcpyDeviceToHost);
    printf("from array: %g %g / %g %g\n", back[0][0], back[0][1], back[1][0], back[1][1]);

    cudaDestroyTextureObject(point);
    cudaDestroyTextureObject(linear);
    cudaDestroyTextureObject(border);
    cudaDestroyTextureObject(wrap);
    cudaDestroyTextureObject(mirror);
    cudaDestroyTextureObject(tex4);
    cudaDestroyTextureObject(tex8);
    cudaFreeArray(array);
    cudaFreeArray(array4);
    cudaFreeArray(array8);
    cudaFree(d_out);
    cudaFree(d_quad);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
