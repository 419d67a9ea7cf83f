// args: -n 6 -s 3 -v samples
// C-style host code around a kernel: options read with getopt, a small data file written with fprintf and
// read back with fgets/sscanf/fscanf, a header line split with strtok and checked with <cctype>, and the
// values scaled on the GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cctype>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void scale(float *x, int n, float s) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * s + 1.0f;
}

int main(int argc, char **argv) {
    int n = 4, verbose = 0;
    float factor = 2.0f;
    int c;
    while ((c = getopt(argc, argv, "n:s:v")) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 's': factor = (float)atof(optarg); break;
        case 'v': verbose = 1; break;
        default: return 1;
        }
    }
    const char *label = optind < argc ? argv[optind] : "data";
    char path[64];
    snprintf(path, sizeof path, "%s.txt", label);

    FILE *out = fopen(path, "w");
    fprintf(out, "# Index, Value; Unit=mm\n");
    for (int i = 0; i < n; i++) fprintf(out, "%d %.2f\n", i, 0.5f * i + 0.25f);
    fclose(out);

    FILE *in = fopen(path, "r");
    char header[64];
    fgets(header, sizeof header, in);
    header[strcspn(header, "\n")] = '\0';
    int words = 0, upper = 0, digits = 0;
    for (char *t = strtok(header + 1, " ,;="); t != NULL; t = strtok(NULL, " ,;=")) {
        words++;
        if (isupper((unsigned char)t[0])) upper++;
        for (char *p = t; *p; p++) *p = (char)toupper((unsigned char)*p);
        if (verbose) printf("field %d: %s\n", words, t);
    }
    float *h = (float *)malloc(n * sizeof(float));
    int idx, read = 0;
    float v;
    while (fscanf(in, "%d %f", &idx, &v) == 2 && read < n) {
        h[idx] = v;
        read++;
        if (isdigit('0' + idx)) digits++;
    }
    fclose(in);
    remove(path);
    printf("%s: %d values, %d fields (%d capitalised), %d digits\n", label, read, words, upper, digits);

    float *d;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + 127) / 128, 128>>>(d, n, factor);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    char line[128] = "";
    for (int i = 0; i < n; i++) {
        char item[16];
        snprintf(item, sizeof item, i ? ",%.2f" : "%.2f", h[i]);
        strncat(line, item, sizeof line - strlen(line) - 1);
    }
    printf("scaled: %s\n", line);
    char *last = strrchr(line, ',');
    printf("last: %s, first comma at %d\n", last ? last + 1 : line, (int)(strchr(line, ',') - line));
    cudaFree(d);
    free(h);
    return 0;
}
