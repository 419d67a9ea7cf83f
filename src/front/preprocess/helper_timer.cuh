// helper_timer.h as warpdbg provides it (with helper_functions.h): the samples' stopwatch on the host's
// clock, which in warpdbg is the program's virtual time. Times in milliseconds.
#ifndef WARPDBG_HELPER_TIMER_H
#define WARPDBG_HELPER_TIMER_H

inline double __warpdbg_timer_now_ms() {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000.0 + t.tv_nsec / 1000000.0;
}

class StopWatchInterface {
  public:
    bool running;
    double started;
    float diff_time;
    float total_time;
    int clock_sessions;
    StopWatchInterface() {
        running = false;
        started = 0.0;
        diff_time = 0.0f;
        total_time = 0.0f;
        clock_sessions = 0;
    }
    void start() {
        started = __warpdbg_timer_now_ms();
        running = true;
    }
    void stop() {
        diff_time = (float)(__warpdbg_timer_now_ms() - started);
        total_time += diff_time;
        running = false;
        clock_sessions++;
    }
    void reset() {
        diff_time = 0.0f;
        total_time = 0.0f;
        clock_sessions = 0;
        if (running) started = __warpdbg_timer_now_ms();
    }
    float getTime() {
        float t = total_time;
        if (running) t += (float)(__warpdbg_timer_now_ms() - started);
        return t;
    }
    float getAverageTime() { return clock_sessions > 0 ? total_time / clock_sessions : 0.0f; }
};

inline bool sdkCreateTimer(StopWatchInterface **timer) {
    *timer = new StopWatchInterface();
    return *timer != NULL;
}
inline bool sdkDeleteTimer(StopWatchInterface **timer) {
    if (*timer) {
        delete *timer;
        *timer = NULL;
    }
    return true;
}
inline bool sdkStartTimer(StopWatchInterface **timer) {
    if (*timer) (*timer)->start();
    return true;
}
inline bool sdkStopTimer(StopWatchInterface **timer) {
    if (*timer) (*timer)->stop();
    return true;
}
inline bool sdkResetTimer(StopWatchInterface **timer) {
    if (*timer) (*timer)->reset();
    return true;
}
inline float sdkGetTimerValue(StopWatchInterface **timer) { return *timer ? (*timer)->getTime() : 0.0f; }
inline float sdkGetAverageTimerValue(StopWatchInterface **timer) {
    return *timer ? (*timer)->getAverageTime() : 0.0f;
}

#endif
