//! Pitched 2D memory (`cudaMallocPitch`, `cudaMemcpy2D`, `cudaMemcpy2DAsync`, `cudaMemset2D`) and texture
//! objects: tests/programs/pitch_2d.cu, texture_object_2d.cu and texture_fetch_1d.cu are recorded on an H200
//! (tests/programs.rs compares them whole); these pin the errors (a width over a pitch, a wrong direction
//! found on the first row, a row past an allocation's end, an array copy outside the array, a texture object
//! of nothing), the filtering's exact values, and the legacy texture references CUDA 12 removed.

#[path = "common/program.rs"]
mod program_run;
use program_run::run;

#[test]
fn pitch_2d_prints_what_the_gpu_printed() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs/pitch_2d.cu")).unwrap();
    let r = run("pitch_2d.cu", &src);
    assert_eq!(
        r.stdout,
        "row 200 bytes, pitch 512 bytes\n\
         y 0:    0.0   18.0   20.0   98.0\n\
         y 1:    1.0   19.0   21.0   99.0\n\
         y 2:    2.0    2.0   22.0  100.0\n\
         y 3:    3.0    3.0   23.0  101.0\n\
         y 4:    4.0   22.0   24.0  102.0\n\
         y 5:    5.0   23.0   25.0  103.0\n\
         y 6:    6.0   24.0   26.0  104.0\n\
         window: 9 11 13 / 2 2 2\n\
         wider than the pitch: cudaErrorInvalidPitchValue\n",
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn a_pitch_is_whole_512_byte_rows_and_memset_2d_fills_only_the_width() {
    let src = "#include <cstdio>\nint main() {\n    char *d; size_t p;\n\
               \x20   printf(\"%d \", cudaMallocPitch((void **)&d, &p, 1, 3));\n    printf(\"%zu \", p);\n\
               \x20   char *e; size_t q;\n    cudaMallocPitch((void **)&e, &q, 513, 2);\n    printf(\"%zu\\n\", q);\n\
               \x20   cudaMemset(e, 1, 2 * q);\n\
               \x20   printf(\"%d \", cudaMemset2D(e + 2, q, 7, 3, 2));\n\
               \x20   printf(\"%d\\n\", cudaMemset2D(e, q, 7, q + 1, 2));\n\
               \x20   char h[2][6];\n\
               \x20   printf(\"%d\\n\", cudaMemcpy2D(h, 6, e, q, 6, 2, cudaMemcpyDeviceToHost));\n\
               \x20   for (int y = 0; y < 2; y++) { for (int x = 0; x < 6; x++) printf(\"%d\", h[y][x]); printf(\"\\n\"); }\n\
               \x20   cudaFree(d); cudaFree(e);\n    return 0;\n}\n";
    let r = run("pitch.cu", src);
    assert_eq!(r.stdout, "0 512 1024\n0 1\n0\n117771\n117771\n", "{}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn a_2d_copy_checks_each_row_as_cuda_memcpy_does() {
    // The host block holds two rows of 16 bytes; asking for three reads past its end on the third row.
    let src = "#include <cstdio>\nint main() {\n    float *d; size_t p;\n\
               \x20   cudaMallocPitch((void **)&d, &p, 16, 3);\n    float *h = (float *)malloc(32);\n\
               \x20   printf(\"%d\\n\", cudaMemcpy2D(d, p, h, 16, 16, 2, cudaMemcpyDeviceToHost));\n\
               \x20   cudaMemcpy2D(d, p, h, 16, 16, 3, cudaMemcpyHostToDevice);\n\
               \x20   printf(\"unreached\\n\");\n    return 0;\n}\n";
    let r = run("rows.cu", src);
    assert_eq!(r.stdout, "1\n", "{}", r.stderr);
    assert!(r.stderr.contains("cudaMemcpy2D at line 6 copies with cudaMemcpyDeviceToHost"), "{}", r.stderr);
    // The third row starts just past `h`: the row's read is where the program stops.
    assert!(r.stderr.contains("host code at line 7 reads out of bounds: 0 bytes after the end of `h`"), "{}", r.stderr);
    assert_ne!(r.status, 0);
}

#[test]
fn legacy_texture_references_are_named_as_removed_in_cuda_12() {
    let src = "#include <cstdio>\ntexture<float, 1, cudaReadModeElementType> tex;\n\
               __global__ void fetch(float *out) { out[threadIdx.x] = tex1Dfetch(tex, threadIdx.x); }\n\
               int main() {\n    float *d; cudaMalloc(&d, 32 * sizeof(float));\n    fetch<<<1, 32>>>(d);\n\
               \x20   cudaDeviceSynchronize();\n    return 0;\n}\n";
    let r = run("legacy.cu", src);
    assert_eq!(r.stdout, "");
    assert!(r.stderr.contains("which CUDA 12 removed (nvcc refuses them)"), "{}", r.stderr);
}

#[test]
fn linear_filtering_gives_the_h200s_fixed_point_weights() {
    // 0.3 texels past a centre: the weight is 77/256, so 100 * 0.30078125, not 30 (the H200 printed these).
    let src = "#include <cstdio>\n#include <cstring>\n\
               __global__ void k(cudaTextureObject_t t, float *o) { o[threadIdx.x] = tex2D<float>(t, 0.8f, 0.5f + 0.3f * threadIdx.x); }\n\
               int main() {\n    float h[2][2] = {{0, 0}, {100, 100}};\n\
               \x20   cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();\n\
               \x20   cudaArray_t a; cudaMallocArray(&a, &c, 2, 2);\n\
               \x20   cudaMemcpy2DToArray(a, 0, 0, h, 8, 8, 2, cudaMemcpyHostToDevice);\n\
               \x20   cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;\n\
               \x20   cudaTextureDesc d; memset(&d, 0, sizeof(d)); d.filterMode = cudaFilterModeLinear;\n\
               \x20   cudaTextureObject_t t; printf(\"%d\\n\", cudaCreateTextureObject(&t, &r, &d, NULL));\n\
               \x20   float *o; cudaMallocManaged(&o, 16); k<<<1, 4>>>(t, o); cudaDeviceSynchronize();\n\
               \x20   printf(\"%.6f %.6f %.6f %.6f\\n\", o[0], o[1], o[2], o[3]);\n\
               \x20   cudaDestroyTextureObject(t); cudaFreeArray(a); cudaFree(o);\n    return 0;\n}\n";
    let r = run("weights.cu", src);
    assert_eq!(r.stdout, "0\n0.000000 30.078125 60.156250 89.843750\n", "{}", r.stderr);
    assert_eq!(r.status, 0, "{}", r.stderr);
}

#[test]
fn array_copies_outside_the_array_and_objects_of_nothing_fail_with_invalid_value() {
    let src = "#include <cstdio>\n#include <cstring>\nint main() {\n    float h[64];\n\
               \x20   cudaChannelFormatDesc c = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);\n\
               \x20   cudaArray_t a; printf(\"%d \", cudaMallocArray(&a, &c, 4, 2));\n\
               \x20   printf(\"%d \", cudaMemcpy2DToArray(a, 0, 1, h, 16, 16, 2, cudaMemcpyHostToDevice));\n\
               \x20   printf(\"%d \", cudaMemcpy2DToArray(a, 4, 0, h, 16, 16, 1, cudaMemcpyHostToDevice));\n\
               \x20   printf(\"%d \", cudaMemcpyToArray(a, 0, 0, h, 33, cudaMemcpyHostToDevice));\n\
               \x20   printf(\"%d\\n\", cudaMemcpyToArray(a, 0, 0, h, 32, cudaMemcpyHostToDevice));\n\
               \x20   cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray;\n\
               \x20   cudaTextureDesc d; memset(&d, 0, sizeof(d));\n\
               \x20   cudaTextureObject_t t; printf(\"%d \", cudaCreateTextureObject(&t, &r, &d, NULL));\n\
               \x20   printf(\"%d \", cudaDestroyTextureObject(12345));\n\
               \x20   printf(\"%d %d\\n\", cudaFreeArray(a), cudaFreeArray(a));\n    return 0;\n}\n";
    let r = run("array_errors.cu", src);
    // The last line's two frees run right to left, as g++ evaluates a call's arguments: the second frees the
    // array (0), the first finds it freed (1).
    assert_eq!(r.stdout, "0 1 1 1 0\n1 1 1 0\n", "{}", r.stderr);
}

#[test]
fn a_vector_fetch_used_as_a_number_is_a_type_error_at_its_line() {
    let src = "__global__ void k(cudaTextureObject_t t, float *o) {\n    o[0] = 1.0f + tex2D<float4>(t, 0.5f, 0.5f);\n}\n\
               int main() { return 0; }\n";
    let e = match warpdbg::program::compile("vec.cu", src.as_bytes(), &Default::default()) {
        Ok(_) => panic!("compiled"),
        Err(e) => e,
    };
    let text = format!("{:?}", e.diags);
    assert!(text.contains("float4"), "{text}");
}

#[test]
fn binding_a_texture_reference_says_cuda_12_removed_them_at_its_line() {
    let src = "#include <cstdio>\nint main() {\n    float *d; cudaMalloc(&d, 64);\n    cudaBindTexture(0, 0, d, 64);\n    return 0;\n}\n";
    let e = match warpdbg::program::compile("bind.cu", src.as_bytes(), &Default::default()) {
        Ok(_) => panic!("compiled"),
        Err(e) => e,
    };
    let d = &e.diags[0];
    assert!(d.message.contains("texture references were removed in CUDA 12; use texture objects"), "{}", d.message);
    assert!(src[d.span.start as usize..].starts_with("cudaBindTexture(0, 0, d, 64);"), "{:?}", d.span);
}
