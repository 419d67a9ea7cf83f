/* time() fixed at warpdbg's virtual clock when main starts (docs/programs.md: 1,700,000,000), loaded with
 * LD_PRELOAD on the GPU machine so that a program seeding rand() with the clock draws the numbers warpdbg's run
 * draws (benches/programs/gpu_reruns.sh). */
#include <time.h>

time_t time(time_t *t) {
    if (t)
        *t = 1700000000;
    return 1700000000;
}
