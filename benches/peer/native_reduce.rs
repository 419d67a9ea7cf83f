//! The native baseline: reduceNeighbored as plain Rust loops over threads, block by block, with the same
//! arithmetic and the same barrier structure (one pass over the block's threads per stride). Reads the inputs
//! written by compare.py; prints JSON like reduce_numba.py.

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (path, n, block): (&str, usize, usize) = (&args[1], args[2].parse().unwrap(), args[3].parse().unwrap());
    let bytes = std::fs::read(path).unwrap();
    let mut data: Vec<i32> = bytes.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    assert_eq!(data.len(), n);
    let mut out = vec![0i32; n / block];
    let t0 = Instant::now();
    for b in 0..n / block {
        let idata = &mut data[b * block..(b + 1) * block];
        let mut stride = 1;
        while stride < block {
            // Every thread of the block, in order: the "barrier" is the end of this pass.
            for tid in 0..block {
                if tid % (2 * stride) == 0 {
                    idata[tid] = idata[tid].wrapping_add(idata[tid + stride]);
                }
            }
            stride *= 2;
        }
        out[b] = idata[0];
    }
    let dt = t0.elapsed().as_secs_f64();
    let list: Vec<String> = out.iter().map(|v| v.to_string()).collect();
    println!("{{\"n\": {n}, \"seconds\": {dt}, \"g_odata\": [{}]}}", list.join(","));
}
