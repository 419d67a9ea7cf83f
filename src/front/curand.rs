//! The cuRAND device functions as the front end names them: which generator a state is, what a call draws,
//! and how many state words and results each function has. The generators themselves are the simulator's
//! (`sim::curand`), which takes this vocabulary from here.

/// XORWOW's state words: `d`, `v[0..5]`, `boxmuller_flag`, `boxmuller_flag_double`, `boxmuller_extra` (f32
/// bits), `boxmuller_extra_double` (f64 bits).
pub const XORWOW_LEAVES: usize = 10;
/// Philox's state words: `ctr.x..w`, `output.x..w`, `key.x`, `key.y`, `STATE`, then the Box-Muller cache as in
/// XORWOW.
pub const PHILOX_LEAVES: usize = 15;

/// Which generator a state is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gen {
    Xorwow,
    Philox,
}

/// What a call draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Draw {
    /// `curand`: one 32-bit word.
    U32,
    /// `curand_uniform`: a float in (0, 1].
    Uniform,
    /// `curand_uniform_double`: a double in (0, 1] from two words.
    UniformDouble,
    /// `curand_normal`: one float of a Box-Muller pair, the other cached in the state.
    Normal,
    /// `curand_normal_double`.
    NormalDouble,
    /// `curand_log_normal(state, mean, stddev)`: `expf(mean + stddev * normal)`, cached likewise.
    LogNormal,
    /// `curand_normal2`: both floats of a pair (no cache).
    Normal2,
    /// `curand4` (Philox): four words.
    U32x4,
    /// `curand_uniform4` (Philox).
    Uniform4,
    /// `curand_normal4` (Philox): two pairs from four words.
    Normal4,
}

impl Draw {
    /// The number of result values a draw produces.
    pub fn results(self) -> usize {
        match self {
            Draw::Normal2 => 2,
            Draw::U32x4 | Draw::Uniform4 | Draw::Normal4 => 4,
            _ => 1,
        }
    }
}

/// A cuRAND device function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CurandFn {
    /// `curand_init(seed, subsequence, offset, &state)`: arguments `[seed, subsequence, offset]`, outputs the
    /// state's words.
    Init(Gen),
    /// A draw: arguments the state's words (then `mean`, `stddev` as f32 bits for a log-normal), outputs the
    /// new state's words followed by the results.
    Draw(Gen, Draw),
}

impl CurandFn {
    /// The number of state words of the generator.
    pub fn leaves(self) -> usize {
        match self {
            CurandFn::Init(Gen::Xorwow) | CurandFn::Draw(Gen::Xorwow, _) => XORWOW_LEAVES,
            _ => PHILOX_LEAVES,
        }
    }

    /// The number of words the function returns (the simulator's `sim::curand::eval`).
    pub fn outputs(self) -> usize {
        match self {
            CurandFn::Init(_) => self.leaves(),
            CurandFn::Draw(_, d) => self.leaves() + d.results(),
        }
    }
}
