// Arrays of std::string with initialisers in host code: labels for a kernel's results.
#include <cstdio>
#include <iostream>
#include <string>

__global__ void square(int *v, int n) {
    int i = threadIdx.x;
    if (i < n) v[i] = v[i] * v[i];
}

int main() {
    std::string labels[4] = {"one", "two", "three"};
    int h[4] = {1, 2, 3, 4};
    int *d;
    cudaMalloc(&d, sizeof(h));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    square<<<1, 4>>>(d, 4);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    cudaFree(d);
    for (int i = 0; i < 4; i++) {
        std::cout << i << ": '" << labels[i] << "' (" << labels[i].size() << " chars) squared " << h[i] << std::endl;
    }
    printf("%s %s %d\n", labels[2].c_str(), labels[3].empty() ? "empty" : "set", (int)labels[0].length());
    return 0;
}
