//! The CUDA runtime calls beyond memory, events and streams: the occupancy API and kernel attributes, 3D
//! pitched memory, stream capture and graphs, pointer attributes, device flags and the managed-memory hints.
//! tests/programs/runtime_*.cu are the same constructs recorded on an H200; these pin the edges (errors,
//! both forms of a signature CUDA 13 changed, what a capture refuses).

use warpdbg::program;

#[path = "common/program.rs"]
mod program_run;
use program_run::run;

const KERNEL: &str = "#include <cstdio>\n__global__ void twice(float *a, int n) {\n    int i = blockIdx.x * blockDim.x + \
                      threadIdx.x;\n    if (i < n) a[i] *= 2.0f;\n}\n";

#[test]
fn the_occupancy_api_follows_the_calculator() {
    let src = format!(
        "{KERNEL}int main() {{\n    int g = 0, b = 0, n = -1;\n\
         \x20   printf(\"%d \", cudaOccupancyMaxPotentialBlockSize(&g, &b, twice));\n    printf(\"%d %d\\n\", g, b);\n\
         \x20   cudaOccupancyMaxPotentialBlockSize(&g, &b, twice, 0, 200);\n    printf(\"%d %d\\n\", g, b);\n\
         \x20   cudaOccupancyMaxPotentialBlockSize(&g, &b, twice, 40000, 0);\n    printf(\"%d %d\\n\", g, b);\n\
         \x20   printf(\"%d \", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, twice, 2048, 0));\n\
         \x20   printf(\"%d\\n\", n);\n\
         \x20   printf(\"%d\\n\", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, twice, 0, 0));\n\
         \x20   cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, twice, 128, 20000);\n    printf(\"%d\\n\", n);\n\
         \x20   return 0;\n}}\n"
    );
    let r = run("occ.cu", &src);
    // 200 threads at most: 192 fills 10 blocks (1920 threads), 160 fills 12 (1920), 128 fills 16 (2048).
    // With 40000 bytes a block, 5 fit an SM (each costs 40,064 + 1,024 of 228 KB): 1024 threads give 2 blocks
    // (64 warps), 2048 threads in all.
    assert_eq!(r.stdout, "0 264 1024\n2112 128\n264 1024\n0 0\n1\n11\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn a_kernels_attributes_count_its_static_shared_memory() {
    let src = "#include <cstdio>\n__global__ void tile(float *a) {\n    __shared__ float t[256];\n    __shared__ int c[8];\n\
               \x20   t[threadIdx.x] = a[threadIdx.x];\n    __syncthreads();\n    a[threadIdx.x] = t[255 - threadIdx.x] + c[0];\n}\n\
               int main() {\n    cudaFuncAttributes f;\n    cudaError_t e = cudaFuncGetAttributes(&f, tile);\n\
               \x20   printf(\"%d %zu %zu %d %d %d %d\\n\", e, f.sharedSizeBytes, f.localSizeBytes, f.maxThreadsPerBlock,\n\
               \x20          f.maxDynamicSharedSizeBytes, f.ptxVersion, f.numRegs >= 16);\n    return 0;\n}\n";
    let r = run("attr.cu", src);
    assert_eq!(r.stdout, "0 1056 0 1024 48096 90 1\n", "{}", r.stderr);
}

#[test]
fn a_class_of_the_program_may_hold_a_cudadeviceprop() {
    let src = "#include <cstdio>\nstruct DeviceInfo {\n    int id;\n    cudaDeviceProp prop;\n    size_t free;\n};\n\
               void show(const DeviceInfo &d) {\n    printf(\"%d: %s, %d.%d, warp %d, %d SMs, %zu\\n\", d.id, d.prop.name,\n\
               \x20          d.prop.major, d.prop.minor, d.prop.warpSize, d.prop.multiProcessorCount, d.free);\n}\n\
               int main() {\n    DeviceInfo d;\n    d.id = 0;\n    d.free = 7;\n    cudaGetDeviceProperties(&d.prop, 0);\n\
               \x20   show(d);\n    DeviceInfo copy = d;\n    printf(\"%d\\n\", copy.prop.maxThreadsDim[2]);\n    return 0;\n}\n";
    let r = run("info.cu", src);
    assert_eq!(r.stdout, "0: warpdbg simulated GPU (sm_90-like, ITS), 9.0, warp 32, 132 SMs, 7\n64\n", "{}", r.stderr);
}

#[test]
fn an_occupancy_call_needs_a_kernel_of_the_file() {
    let src = "#include <cstdio>\nvoid host_fn(float *a) {}\nint main() {\n    int g, b;\n\
               \x20   cudaOccupancyMaxPotentialBlockSize(&g, &b, host_fn, 0, 0);\n    return 0;\n}\n";
    let compiled = program::compile("bad.cu", src.as_bytes(), &Default::default());
    let Err(err) = compiled else { panic!("host_fn is no kernel") };
    let diags = err.diags;
    assert!(
        diags.iter().any(|d| d.message.contains("`cudaOccupancyMaxPotentialBlockSize` takes a kernel of this file")),
        "{diags:?}"
    );
}

#[test]
fn device_flags_and_memory_hints_are_accepted_in_both_cuda_12_and_13_forms() {
    let src = format!(
        "{KERNEL}int main() {{\n    printf(\"%d\\n\", cudaSetDeviceFlags(cudaDeviceMapHost | cudaDeviceScheduleBlockingSync));\n\
         \x20   float *m;\n    cudaMallocManaged(&m, 64 * sizeof(float));\n    for (int i = 0; i < 64; i++) m[i] = i;\n\
         \x20   int dev = 0;\n    cudaGetDevice(&dev);\n\
         \x20   cudaMemAdvise(m, 64 * sizeof(float), cudaMemAdviseSetPreferredLocation, dev);\n\
         \x20   cudaMemPrefetchAsync(m, 64 * sizeof(float), dev, 0);\n\
         \x20   cudaMemPrefetchAsync(m, 64 * sizeof(float), dev);\n\
         \x20   cudaMemLocation loc;\n    loc.type = cudaMemLocationTypeDevice;\n    loc.id = dev;\n\
         \x20   printf(\"%d\\n\", cudaMemPrefetchAsync(m, 64 * sizeof(float), loc, 0, 0));\n\
         \x20   twice<<<1, 64>>>(m, 64);\n\
         \x20   cudaMemPrefetchAsync(m, 64 * sizeof(float), cudaCpuDeviceId, 0);\n    cudaDeviceSynchronize();\n\
         \x20   printf(\"%.1f %.1f\\n\", m[1], m[63]);\n    cudaFree(m);\n    return 0;\n}}\n"
    );
    let r = run("hints.cu", &src);
    assert_eq!(r.stdout, "0\n0\n2.0 126.0\n", "{}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn pitched_3d_copies_move_only_the_box_asked_for() {
    let src = "#include <cstdio>\nint main() {\n    float h[2][3][4], out[2][3][4];\n\
               \x20   for (int i = 0; i < 24; i++) { (&h[0][0][0])[i] = i; (&out[0][0][0])[i] = -1; }\n\
               \x20   cudaExtent e = make_cudaExtent(4 * sizeof(float), 3, 2);\n    cudaPitchedPtr d;\n\
               \x20   cudaMalloc3D(&d, e);\n\
               \x20   cudaMemcpy3DParms p = {0};\n    p.srcPtr = make_cudaPitchedPtr(h, 16, 4, 3);\n    p.dstPtr = d;\n\
               \x20   p.extent = e;\n    p.kind = cudaMemcpyHostToDevice;\n    printf(\"%d\\n\", cudaMemcpy3D(&p));\n\
               \x20   cudaMemcpy3DParms q = {0};\n    q.srcPtr = d;\n    q.srcPos = make_cudaPos(4, 1, 1);\n\
               \x20   q.dstPtr = make_cudaPitchedPtr(out, 16, 4, 3);\n    q.extent = make_cudaExtent(8, 2, 1);\n\
               \x20   q.kind = cudaMemcpyDeviceToHost;\n    printf(\"%d\\n\", cudaMemcpy3D(&q));\n\
               \x20   for (int i = 0; i < 12; i++) printf(\"%g \", (&out[0][0][0])[i]);\n\
               \x20   q.extent = make_cudaExtent(600, 1, 1);\n\
               \x20   printf(\"\\n%d %zu\\n\", cudaMemcpy3D(&q), d.pitch);\n    cudaFree(d.ptr);\n    return 0;\n}\n";
    let r = run("box.cu", src);
    // Source slice 1 (12..23), rows 1 and 2 (16.., 20..), from the second float, two floats a row, into the
    // first two rows of the destination; a row wider than the pitch is refused.
    assert_eq!(r.stdout, "0\n0\n17 18 -1 -1 21 22 -1 -1 -1 -1 -1 -1 \n1 512\n", "{}", r.stderr);
}

#[test]
fn a_graph_replays_what_the_capture_recorded_and_a_capture_refuses_waiting() {
    let src = format!(
        "{KERNEL}int main() {{\n    float *d, h[4] = {{1, 2, 3, 4}};\n    cudaMalloc(&d, sizeof(h));\n\
         \x20   cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);\n    cudaStream_t s;\n    cudaStreamCreate(&s);\n\
         \x20   cudaGraph_t g;\n    cudaGraphExec_t x;\n\
         \x20   printf(\"%d\\n\", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));\n\
         \x20   cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n\
         \x20   twice<<<1, 4, 0, s>>>(d, 4);\n    cudaMemsetAsync(d, 0, 4, s);\n\
         \x20   cudaStreamEndCapture(s, &g);\n\
         \x20   cudaGraphInstantiate(&x, g, NULL, NULL, 0);\n\
         \x20   cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);\n    printf(\"%g %g\\n\", h[0], h[1]);\n\
         \x20   cudaGraphLaunch(x, s);\n    cudaGraphLaunch(x, s);\n    cudaStreamSynchronize(s);\n\
         \x20   cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);\n    printf(\"%g %g %g\\n\", h[0], h[1], h[3]);\n\
         \x20   cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);\n\
         \x20   printf(\"%s\\n\", cudaGetErrorName(cudaDeviceSynchronize()));\n\
         \x20   cudaGraph_t bad;\n    printf(\"%s\\n\", cudaGetErrorName(cudaStreamEndCapture(s, &bad)));\n\
         \x20   printf(\"%s\\n\", cudaGetErrorName(cudaStreamEndCapture(s, &bad)));\n\
         \x20   cudaGraphExecDestroy(x);\n    printf(\"%s\\n\", cudaGetErrorName(cudaGraphLaunch(x, s)));\n\
         \x20   cudaGraphDestroy(g);\n    cudaFree(d);\n    return 0;\n}}\n"
    );
    let r = run("graph.cu", &src);
    assert_eq!(
        r.stdout,
        "900\n1 2\n0 8 16\ncudaErrorStreamCaptureUnsupported\ncudaErrorStreamCaptureInvalidated\n\
         cudaErrorIllegalState\ncudaErrorInvalidValue\n",
        "{}",
        r.stderr
    );
    // A captured launch does not run, so takes no number: the two replays are launches 1 and 2.
    assert!(r.stderr.contains("launch 2: twice") && !r.stderr.contains("launch 3"), "{}", r.stderr);
}

#[test]
fn cuda_free_of_pinned_memory_fails_and_leaves_it_allocated() {
    // Measured on an H200 (CUDA 13): cudaFree of cudaMallocHost memory returns cudaErrorInvalidValue, and a
    // cudaFreeHost after it still succeeds.
    let src = "#include <cstdio>\nint main() {\n    float *p;\n    cudaMallocHost(&p, 64);\n\
               \x20   printf(\"%d\\n\", cudaFree(p));\n    printf(\"%d\\n\", cudaGetLastError());\n\
               \x20   printf(\"%d\\n\", cudaFreeHost(p));\n    return 0;\n}\n";
    let r = run("pinned.cu", src);
    assert_eq!(r.stdout, "1\n1\n0\n");
    assert!(r.stderr.contains("cudaFree at line 5 frees memory cudaMalloc did not return: `p` is host memory"));
    assert_eq!(r.status, 1, "a finding");
}
