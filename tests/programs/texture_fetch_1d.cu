// Texture objects over linear memory: tex1Dfetch by index (floats and ints, past the end too), tex1D with
// linear filtering on the same buffer, and tex2D on pitched 2D memory, as a stencil reads its neighbours.
#include <cstdio>
#include <cstring>

#define N 16

__global__ void fetchFloat(cudaTextureObject_t tex, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i - 1) + tex1Dfetch<float>(tex, i + 1);
}

__global__ void fetchInt(cudaTextureObject_t tex, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(tex, 2 * i) * 10 + tex1Dfetch<int>(tex, 2 * i + 1);
}

__global__ void blur(cudaTextureObject_t tex, float *out, int width, int height) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < width && y < height) {
        float sum = tex2D<float>(tex, x - 1, y) + tex2D<float>(tex, x + 1, y) + tex2D<float>(tex, x, y - 1) +
                    tex2D<float>(tex, x, y + 1);
        out[y * width + x] = 0.25f * sum;
    }
}

__global__ void halfway(cudaTextureObject_t tex, float *out) {
    int i = threadIdx.x;
    out[i] = tex2D<float>(tex, 0.5f + 0.1f * i, 1.5f + 0.05f * i);
}

int main() {
    float h_in[N];
    int h_ints[N];
    for (int i = 0; i < N; i++) {
        h_in[i] = i * i * 0.5f;
        h_ints[i] = (i * 7) % 10 - 3;
    }
    float *d_in, *d_out;
    int *d_ints, *d_iout;
    cudaMalloc(&d_in, N * sizeof(float));
    cudaMalloc(&d_out, N * sizeof(float));
    cudaMalloc(&d_ints, N * sizeof(int));
    cudaMalloc(&d_iout, N * sizeof(int));
    cudaMemcpy(d_in, h_in, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_ints, h_ints, N * sizeof(int), cudaMemcpyHostToDevice);

    cudaResourceDesc resDesc;
    memset(&resDesc, 0, sizeof(resDesc));
    resDesc.resType = cudaResourceTypeLinear;
    resDesc.res.linear.devPtr = d_in;
    resDesc.res.linear.desc.f = cudaChannelFormatKindFloat;
    resDesc.res.linear.desc.x = 32;
    resDesc.res.linear.sizeInBytes = N * sizeof(float);
    cudaTextureDesc texDesc;
    memset(&texDesc, 0, sizeof(texDesc));
    texDesc.readMode = cudaReadModeElementType;
    cudaTextureObject_t texFloat = 0;
    cudaCreateTextureObject(&texFloat, &resDesc, &texDesc, NULL);
    fetchFloat<<<2, 8>>>(texFloat, d_out, N);
    float h_out[N];
    cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);
    printf("neighbours:");
    for (int i = 0; i < N; i++) printf(" %.1f", h_out[i]);
    printf("\n");

    resDesc.res.linear.devPtr = d_ints;
    resDesc.res.linear.desc = cudaCreateChannelDesc<int>();
    cudaTextureObject_t texInt = 0;
    cudaCreateTextureObject(&texInt, &resDesc, &texDesc, NULL);
    fetchInt<<<1, N>>>(texInt, d_iout, N);
    int h_iout[N];
    cudaMemcpy(h_iout, d_iout, N * sizeof(int), cudaMemcpyDeviceToHost);
    printf("pairs:");
    for (int i = 0; i < N; i++) printf(" %d", h_iout[i]);
    printf("\n");

    // A 5 x 4 image in pitched memory, read with clamped point sampling and then linear filtering.
    const int width = 5, height = 4;
    float image[height][width];
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) image[y][x] = (float)(x * x + 3 * y);
    float *d_image;
    size_t pitch;
    cudaMallocPitch(&d_image, &pitch, width * sizeof(float), height);
    cudaMemcpy2D(d_image, pitch, image, width * sizeof(float), width * sizeof(float), height, cudaMemcpyHostToDevice);
    cudaResourceDesc pitchDesc;
    memset(&pitchDesc, 0, sizeof(pitchDesc));
    pitchDesc.resType = cudaResourceTypePitch2D;
    pitchDesc.res.pitch2D.devPtr = d_image;
    pitchDesc.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    pitchDesc.res.pitch2D.width = width;
    pitchDesc.res.pitch2D.height = height;
    pitchDesc.res.pitch2D.pitchInBytes = pitch;
    texDesc.addressMode[0] = cudaAddressModeClamp;
    texDesc.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t texImage = 0;
    cudaCreateTextureObject(&texImage, &pitchDesc, &texDesc, NULL);
    float *d_blur;
    cudaMalloc(&d_blur, width * height * sizeof(float));
    blur<<<1, dim3(width, height)>>>(texImage, d_blur, width, height);
    float h_blur[height][width];
    cudaMemcpy(h_blur, d_blur, sizeof(h_blur), cudaMemcpyDeviceToHost);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) printf("%8.2f", h_blur[y][x]);
        printf("\n");
    }

    texDesc.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t texLinear = 0;
    cudaCreateTextureObject(&texLinear, &pitchDesc, &texDesc, NULL);
    halfway<<<1, N>>>(texLinear, d_out);
    cudaMemcpy(h_out, d_out, N * sizeof(float), cudaMemcpyDeviceToHost);
    printf("linear:");
    for (int i = 0; i < N; i++) printf(" %.6f", h_out[i]);
    printf("\n");

    cudaDestroyTextureObject(texFloat);
    cudaDestroyTextureObject(texInt);
    cudaDestroyTextureObject(texImage);
    cudaDestroyTextureObject(texLinear);
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_ints);
    cudaFree(d_iout);
    cudaFree(d_image);
    cudaFree(d_blur);
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
