//! The CUDA samples' helper headers (`helper_cuda.h`, `helper_string.h`, `helper_timer.h`,
//! `helper_functions.h`), which warpdbg provides itself (src/front/preprocess/helper_cuda.cuh): the device
//! choice prints what an H100 prints under the samples' own header (`GPU Device 0: "Hopper" with compute
//! capability 9.0`, recorded for NVIDIA's fp16ScalarProduct sample), the error checks print the samples'
//! messages and exit, the command-line helpers and the stopwatch work as the samples' do.

use warpdbg::program::{self, RunOptions};

struct Run {
    stdout: String,
    stderr: String,
    status: u8,
}

fn run(src: &str, args: &[&str]) -> Run {
    let compiled = program::compile("helpers.cu", src.as_bytes(), &Default::default())
        .unwrap_or_else(|e| panic!("does not compile: {:?}", e.diags));
    let options = RunOptions { args: args.iter().map(|a| a.to_string()).collect(), ..Default::default() };
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &options, &mut out, &mut err);
    Run { stdout: String::from_utf8_lossy(&out).into(), stderr: String::from_utf8_lossy(&err).into(), status: r.status }
}

const DEVICE: &str = r#"#include <cstdio>
#include "helper_cuda.h"
__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x; }
int main(int argc, char **argv) {
    int dev = findCudaDevice(argc, (const char **)argv);
    int *d;
    checkCudaErrors(cudaMalloc((void **)&d, 32 * sizeof(int)));
    fill<<<1, 32>>>(d);
    getLastCudaError("fill failed");
    fill<<<1, 2048>>>(d);
    printLastCudaError("too many threads");
    printf("device %d, %s has %d cores per SM\n", dev, _ConvertSMVer2ArchName(8, 6), _ConvertSMVer2Cores(8, 6));
    checkCudaErrors(cudaFree(d));
    checkCudaErrors(cudaFree(d));
    printf("not reached\n");
    return 0;
}
"#;

#[test]
fn device_choice_and_error_checks_print_what_the_samples_print() {
    let r = run(DEVICE, &[]);
    assert_eq!(
        r.stdout,
        "GPU Device 0: \"Hopper\" with compute capability 9.0\n\ndevice 0, Ampere has 128 cores per SM\n"
    );
    let errors: Vec<&str> = r.stderr.lines().filter(|l| !l.starts_with("warpdbg:")).collect();
    assert_eq!(
        errors,
        [
            // (An H100 under CUDA 13 refuses every bad configuration with cudaErrorInvalidValue: programs_api.)
            "helpers.cu(11) : getLastCudaError() CUDA error : too many threads : (1) invalid argument.",
            "CUDA error at helpers.cu:14 code=1(cudaErrorInvalidValue) \"cudaFree(d)\" ",
        ]
    );
    assert_eq!(r.status, 1, "checkCudaErrors exits with EXIT_FAILURE");

    // `-device=N` picks the device the samples' way; a device that does not exist ends the program.
    let r = run(DEVICE, &["-device=0"]);
    assert!(r.stdout.starts_with("gpuDeviceInit() CUDA Device [0]: \"Hopper\ndevice 0,"), "{}", r.stdout);
    let r = run(DEVICE, &["--device=3"]);
    assert_eq!(r.stdout, "exiting...\n");
    assert!(
        r.stderr.contains(
            ">> 1 CUDA capable GPU device(s) detected. <<\n>> gpuDeviceInit (-device=3) is not a valid GPU device. <<"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 1);
}

#[test]
fn command_line_helpers_and_the_stopwatch_work_as_the_samples() {
    let src = r#"#include <cstdio>
#include <helper_functions.h>
#include <helper_cuda.h>
__global__ void k(float *a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = i * 0.5f; }
int main(int argc, char **argv) {
    const char **args = (const char **)argv;
    int n = checkCmdLineFlag(argc, args, "N") ? getCmdLineArgumentInt(argc, args, "n") : 1024;
    float scale = getCmdLineArgumentFloat(argc, args, "scale");
    printf("n %d scale %.2f verbose %d missing %d\n", n, scale, checkCmdLineFlag(argc, args, "verbose"),
           checkCmdLineFlag(argc, args, "quiet"));
    StopWatchInterface *timer = NULL;
    sdkCreateTimer(&timer);
    float *d;
    checkCudaErrors(cudaMalloc((void **)&d, n * sizeof(float)));
    sdkStartTimer(&timer);
    k<<<(n + 255) / 256, 256>>>(d, n);
    checkCudaErrors(cudaDeviceSynchronize());
    sdkStopTimer(&timer);
    float once = sdkGetTimerValue(&timer);
    sdkStartTimer(&timer);
    k<<<(n + 255) / 256, 256>>>(d, n);
    checkCudaErrors(cudaDeviceSynchronize());
    sdkStopTimer(&timer);
    printf("timed: %d, two sessions add up: %d, average is half: %d\n", once > 0.0f,
           sdkGetTimerValue(&timer) > once, sdkGetAverageTimerValue(&timer) == sdkGetTimerValue(&timer) / 2);
    sdkResetTimer(&timer);
    printf("after reset %.1f, average %.1f\n", sdkGetTimerValue(&timer), sdkGetAverageTimerValue(&timer));
    sdkDeleteTimer(&timer);
    printf("deleted %d, waived is %d\n", timer == NULL, EXIT_WAIVED);
    checkCudaErrors(cudaFree(d));
    return 0;
}
"#;
    let r = run(src, &["--n=4096", "-scale=1.5", "-Verbose"]);
    assert_eq!(
        r.stdout,
        "n 4096 scale 1.50 verbose 1 missing 0\n\
         timed: 1, two sessions add up: 1, average is half: 1\n\
         after reset 0.0, average 0.0\n\
         deleted 1, waived is 2\n"
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}
