// helper_cuda.h as warpdbg provides it (src/front/preprocess/headers.rs): the error checks, device choice and
// command-line helpers of NVIDIA's CUDA samples (Common/helper_cuda.h, helper_string.h), which courses copy,
// written for warpdbg's one simulated device. What they print is what the samples print.
#ifndef WARPDBG_HELPER_CUDA_H
#define WARPDBG_HELPER_CUDA_H

// The architecture's name for a compute capability, as the samples name them.
inline const char *_ConvertSMVer2ArchName(int major, int minor) {
    int sm = major * 16 + minor;
    if (sm == 0x30 || sm == 0x32 || sm == 0x35 || sm == 0x37) return "Kepler";
    if (sm == 0x50 || sm == 0x52 || sm == 0x53) return "Maxwell";
    if (sm == 0x60 || sm == 0x61 || sm == 0x62) return "Pascal";
    if (sm == 0x70 || sm == 0x72) return "Volta";
    if (sm == 0x75) return "Turing";
    if (sm == 0x80 || sm == 0x86 || sm == 0x87) return "Ampere";
    if (sm == 0x89) return "Ada";
    return "Hopper";
}

// CUDA cores per multiprocessor for a compute capability.
inline int _ConvertSMVer2Cores(int major, int minor) {
    int sm = major * 16 + minor;
    if (sm == 0x30 || sm == 0x32 || sm == 0x35 || sm == 0x37) return 192;
    if (sm == 0x60 || sm == 0x70 || sm == 0x72 || sm == 0x75 || sm == 0x80) return 64;
    return 128;
}

inline const char *_cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }

template <typename T>
void __warpdbg_check(T result, const char *const func, const char *const file, const int line) {
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\" \n", file, line, (int)result,
                cudaGetErrorName((cudaError_t)(int)result), func);
        exit(EXIT_FAILURE);
    }
}
#define checkCudaErrors(val) __warpdbg_check((val), #val, __FILE__, __LINE__)

// The last launch's error, reported as the samples report it; whether there was one.
inline bool __warpdbg_printLastCudaError(const char *message, const char *file, const int line) {
    cudaError_t err = cudaGetLastError();
    if (cudaSuccess != err) {
        fprintf(stderr, "%s(%i) : getLastCudaError() CUDA error : %s : (%d) %s.\n", file, line, message, (int)err,
                cudaGetErrorString(err));
    }
    return cudaSuccess != err;
}

inline void __warpdbg_getLastCudaError(const char *message, const char *file, const int line) {
    if (__warpdbg_printLastCudaError(message, file, line)) exit(EXIT_FAILURE);
}
#define getLastCudaError(msg) __warpdbg_getLastCudaError(msg, __FILE__, __LINE__)

#define printLastCudaError(msg) __warpdbg_printLastCudaError(msg, __FILE__, __LINE__)

// helper_string.h: `-name`, `--name` and `-name=value` arguments, names compared without case; the exit
// status of a sample that cannot run on this device.
#ifndef EXIT_WAIVED
#define EXIT_WAIVED 2
#endif

inline int stringRemoveDelimiter(char delimiter, const char *string) {
    int start = 0;
    while (string[start] == delimiter) start++;
    if (start >= (int)strlen(string) - 1) return 0;
    return start;
}

inline bool __warpdbg_same_name(const char *a, const char *b, int n) {
    for (int i = 0; i < n; i++) {
        if (tolower(a[i]) != tolower(b[i])) return false;
        if (a[i] == 0) return true;
    }
    return true;
}

inline bool checkCmdLineFlag(const int argc, const char **argv, const char *string_ref) {
    for (int i = 1; i < argc; i++) {
        const char *arg = &argv[i][stringRemoveDelimiter('-', argv[i])];
        const char *equal = strchr(arg, '=');
        int length = equal == 0 ? (int)strlen(arg) : (int)(equal - arg);
        if (length == (int)strlen(string_ref) && __warpdbg_same_name(arg, string_ref, length)) return true;
    }
    return false;
}

// The value of argument `string_ref` (after its `=`, if any: "" for none), or NULL when no argument names it.
inline const char *__warpdbg_argument_value(const int argc, const char **argv, const char *string_ref) {
    int length = (int)strlen(string_ref);
    for (int i = 1; i < argc; i++) {
        const char *arg = &argv[i][stringRemoveDelimiter('-', argv[i])];
        if (__warpdbg_same_name(arg, string_ref, length)) {
            if (length + 1 <= (int)strlen(arg)) return &arg[length + (arg[length] == '=' ? 1 : 0)];
            return "";
        }
    }
    return NULL;
}

inline int getCmdLineArgumentInt(const int argc, const char **argv, const char *string_ref) {
    const char *value = __warpdbg_argument_value(argc, argv, string_ref);
    return value ? atoi(value) : 0;
}

inline float getCmdLineArgumentFloat(const int argc, const char **argv, const char *string_ref) {
    const char *value = __warpdbg_argument_value(argc, argv, string_ref);
    return value ? (float)atof(value) : 0.0f;
}

inline int gpuGetMaxGflopsDeviceId() {
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (count == 0) {
        fprintf(stderr, "gpuGetMaxGflopsDeviceId() CUDA error: no devices supporting CUDA.\n");
        exit(EXIT_FAILURE);
    }
    return 0;
}

inline int gpuDeviceInit(int devID) {
    int count = 0;
    checkCudaErrors(cudaGetDeviceCount(&count));
    if (devID < 0) devID = 0;
    if (devID > count - 1) {
        fprintf(stderr, "\n");
        fprintf(stderr, ">> %d CUDA capable GPU device(s) detected. <<\n", count);
        fprintf(stderr, ">> gpuDeviceInit (-device=%d) is not a valid GPU device. <<\n", devID);
        fprintf(stderr, "\n");
        return -devID;
    }
    int major = 0, minor = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, devID));
    checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, devID));
    checkCudaErrors(cudaSetDevice(devID));
    printf("gpuDeviceInit() CUDA Device [%d]: \"%s\n", devID, _ConvertSMVer2ArchName(major, minor));
    return devID;
}

inline int findCudaDevice(int argc, const char **argv) {
    int devID = 0;
    if (checkCmdLineFlag(argc, argv, "device")) {
        devID = getCmdLineArgumentInt(argc, argv, "device=");
        if (devID < 0) {
            printf("Invalid command line parameter\n ");
            exit(EXIT_FAILURE);
        }
        devID = gpuDeviceInit(devID);
        if (devID < 0) {
            printf("exiting...\n");
            exit(EXIT_FAILURE);
        }
    } else {
        devID = gpuGetMaxGflopsDeviceId();
        checkCudaErrors(cudaSetDevice(devID));
        int major = 0, minor = 0;
        checkCudaErrors(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, devID));
        checkCudaErrors(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, devID));
        printf("GPU Device %d: \"%s\" with compute capability %d.%d\n\n", devID, _ConvertSMVer2ArchName(major, minor),
               major, minor);
    }
    return devID;
}

#endif
