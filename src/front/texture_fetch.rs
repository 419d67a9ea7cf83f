//! The texture fetches of the kernel language (`tex1Dfetch`, `tex1D`, `tex2D`): which one a call is. The
//! front end reads them, the IR carries them and the simulator samples (`crate::sim::texture`).

/// Which fetch a kernel calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexDim {
    /// `tex1Dfetch(obj, int i)`: an element of linear memory by index, unfiltered.
    Fetch1D,
    /// `tex1D(obj, float x)`.
    D1,
    /// `tex2D(obj, float x, float y)`.
    D2,
}

impl TexDim {
    /// The builtin's name, as a kernel calls it.
    pub fn name(self) -> &'static str {
        match self {
            TexDim::Fetch1D => "tex1Dfetch",
            TexDim::D1 => "tex1D",
            TexDim::D2 => "tex2D",
        }
    }
}
