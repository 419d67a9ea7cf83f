// grayscale.cu - colour to greyscale conversion of a 76 x 62 RGB picture (Kirk & Hwu), 16x16 blocks.
// 5 x 4 = 20 blocks of 8 warps (160 warps). Watch `if (col < width && row < height)`:
// the right column of blocks (cols 64..79) has 4 lanes outside the picture per 16-lane row, so its warps
// diverge; the bottom row of blocks (rows 48..63) loses rows 62-63, exactly its last warp, which skips uniformly.
// In the corner block that last warp lies wholly below the picture: `row < height` fails for every lane, so
// the `if` is uniform there although its columns straddle the edge (count the statement, not the operand).
// Expect 31 divergent warps: 24 in the right column, 0 in the bottom row, 7 in the corner block.
// @kernel colorToGreyscaleConversion
// @arg width = 76
// @arg height = 62
// @block 16 16
// @grid (width + 15) / 16, (height + 15) / 16
// @arg Pout unsigned char[width * height] = 0
// @arg Pin unsigned char[width * height * 3] = rand(0, 255)
// @seed 1

// we have 3 channels corresponding to RGB
// The input image is encoded as unsigned characters [0, 255]
__global__ void colorToGreyscaleConversion(unsigned char *Pout, unsigned char *Pin, int width, int height)
{
    const int CHANNELS = 3;
    int col = threadIdx.x + blockIdx.x * blockDim.x;
    int row = threadIdx.y + blockIdx.y * blockDim.y;
    if (col < width && row < height) {
        // get 1D coordinate for the grayscale image
        int grayOffset = row * width + col;
        // one can think of the RGB image having
        // CHANNELS times columns than the grayscale image
        int rgbOffset = grayOffset * CHANNELS;
        unsigned char r = Pin[rgbOffset];     // red value for pixel
        unsigned char g = Pin[rgbOffset + 1]; // green value for pixel
        unsigned char b = Pin[rgbOffset + 2]; // blue value for pixel
        // perform the rescaling and store it
        // We multiply by floating point constants
        Pout[grayOffset] = 0.21f * r + 0.71f * g + 0.07f * b;
    }
}
