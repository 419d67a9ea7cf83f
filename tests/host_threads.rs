//! `<thread>`, `<mutex>`, `<condition_variable>` and `<atomic>` in host code (`src/host/threads.rs`): each
//! thread runs to its end where it is created; a wait that cannot end under that schedule is a host deadlock
//! (status 3) at its line.

#[path = "common/program.rs"]
mod program_run;
use program_run::run;

fn program(name: &str) -> (String, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/programs");
    let src = std::fs::read_to_string(format!("{dir}/{name}.cu")).unwrap();
    let expected = std::fs::read_to_string(format!("{dir}/expected/{name}.stdout")).unwrap();
    (src, expected)
}

#[test]
fn one_thread_per_chunk_launches_its_kernel_and_joins() {
    let (src, expected) = program("host_threads");
    let r = run("host_threads.cu", &src);
    assert_eq!(r.stdout, expected, "{}", r.stderr);
    assert!(r.stdout.contains("kernels launched: 5\n") && r.stdout.contains("total: 13424320\n"));
    assert_eq!(r.status, 0);
}

#[test]
fn a_consumer_created_after_its_producer_pops_every_batch_in_order() {
    let (src, expected) = program("host_producer_consumer");
    let r = run("host_producer_consumer.cu", &src);
    assert_eq!(r.stdout, expected, "{}", r.stderr);
    assert!(r.stdout.ends_with("total 8000.0, queue left 0\n"));
    assert_eq!(r.status, 0);
}

const WAITERS: &str = "#include <cstdio>
#include <thread>
#include <mutex>
#include <condition_variable>

std::mutex m;
std::condition_variable cv;
bool a_ready = false, b_ready = false;

void first()
{
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [] { return b_ready; });
    a_ready = true;
    cv.notify_all();
}

void second()
{
    std::unique_lock<std::mutex> lock(m);
    cv.wait(lock, [] { return a_ready; });
    b_ready = true;
    cv.notify_all();
}

int main()
{
    printf(\"starting\\n\");
    std::thread a(first);
    std::thread b(second);
    a.join();
    b.join();
    printf(\"never printed\\n\");
    return 0;
}
";

#[test]
fn two_threads_waiting_for_each_other_are_a_host_deadlock_at_the_first_wait() {
    let r = run("waiters.cu", WAITERS);
    assert_eq!(r.stdout, "starting\n");
    assert!(
        r.stderr.contains(
            "host deadlock at line 13: a thread waits on a condition variable here forever: its predicate is false"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(r.status, 3, "as a device deadlock");
}

#[test]
fn a_wait_without_a_predicate_cannot_end_and_is_a_deadlock() {
    let src = WAITERS.replace("cv.wait(lock, [] { return b_ready; });", "cv.wait(lock);");
    let r = run("waiters.cu", &src);
    assert!(r.stderr.contains("host deadlock at line 13:"), "{}", r.stderr);
    assert_eq!(r.status, 3);
}

#[test]
fn atomics_thread_names_and_scalar_initialisers() {
    let src = "#include <cstdio>
#include <thread>
#include <atomic>
int thread = 3;
std::atomic<bool> flag;
std::atomic<unsigned int> hits{};
int main()
{
    unsigned n = std::thread::hardware_concurrency();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::yield();
    std::atomic<int> a(4), b{5};
    int c(6), d{7};
    flag = true;
    hits += 5;
    hits++;
    unsigned before = hits.fetch_sub(2);
    hits.store(hits.load() * 10);
    printf(\"%u %d %d %u %u %d %d %d %d\\n\", n, thread, (int)flag.load(), before, hits.load(), a.fetch_add(1), a.load(), b + c, d);
    std::thread t = std::thread([&] { thread = 7; });
    t.join();
    printf(\"%d %d\\n\", thread, (int)t.joinable());
    return 0;
}
";
    let r = run("atomics.cu", src);
    // `a.fetch_add(1), a.load()` in one call: g++ evaluates the load first (a call's arguments, last first),
    // so both print 4, as g++ 12's build of this program does.
    assert_eq!(r.stdout, "2 3 1 6 40 4 4 11 7\n7 0\n", "{}", r.stderr);
    assert_eq!(r.status, 0);
}

#[test]
fn what_the_schedule_cannot_run_is_named_at_its_line() {
    let src = "#include <thread>
int main()
{
    int x = 0;
    std::thread t([&] {
        if (x > 0)
            return;
        x = 1;
    });
    t.join();
    return x;
}
";
    let Err(e) = warpdbg::program::compile("ret.cu", src.as_bytes(), &Default::default()) else {
        panic!("a return in a thread's lambda is not read yet")
    };
    let text = format!("{:?}", e.diags);
    assert!(text.contains("a `return` in a thread's lambda yet"), "{text}");
}
