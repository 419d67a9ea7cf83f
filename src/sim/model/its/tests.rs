//! The ITS scheduler's shortcuts (`regroup.rs`, the barrier's whole-warp arrival) against the general pass
//! they stand for: the same group chosen and the same state after, on the branch shapes they cover.

use super::*;

/// Diverges the converged warp `exists` at PC 5 (`taken` to `then_pc`, the rest to `else_pc`, reconverging
/// at `reconv`), then runs each group forward to `reconv` in turn, checking at every choice that the
/// shortcut's answer and state are the general pass's.
fn check_branch(exists: LaneMask, taken: LaneMask, then_pc: Pc, else_pc: Pc, reconv: Pc) {
    let mut w = ItsWarp::new(exists);
    w.advance(exists, Pc(0), Pc(5));
    assert_eq!(w.candidate(), Some((Pc(5), exists)));
    w.diverge(exists, Pc(5), taken, then_pc, else_pc, reconv);
    assert!(w.split.0.is_some(), "a converged warp's branch leaves a plan");
    for _ in 0..4 {
        let mut general = w.clone();
        general.forget_plans();
        general.running = None;
        let (pc, group) = w.candidate().expect("a group runs");
        assert_eq!(general.choose_group(), Some((pc, group)));
        assert_eq!(w, general, "the state after choosing");
        assert_eq!((w.running, w.converged), (general.running, general.converged));
        if w.converged.is_some() {
            assert_eq!(group, exists);
            assert_eq!(pc, reconv);
            return;
        }
        // The group runs one instruction on alone, then jumps forward to the reconvergence point.
        w.advance(group, pc, Pc(pc.0 + 1));
        assert_eq!(w.candidate(), Some((Pc(pc.0 + 1), group)));
        w.advance(group, Pc(pc.0 + 1), reconv);
    }
    panic!("the warp never reconverged");
}

#[test]
fn shortcuts_choose_what_the_general_pass_chooses() {
    let halves = LaneMask(0x5555_5555);
    for exists in [LaneMask::FULL, LaneMask(0x00ff_ffff)] {
        let taken = halves.and(exists);
        // `if (c) { body }`: the not-taken side stands at the reconvergence point.
        check_branch(exists, taken, Pc(6), Pc(9), Pc(9));
        // The branch jumps over the body when taken: the taken side waits.
        check_branch(exists, taken, Pc(9), Pc(6), Pc(9));
        // `if (c) { .. } else { .. }`: both sides run, one after the other.
        check_branch(exists, taken, Pc(6), Pc(9), Pc(12));
        // A few lanes (the vector select and the lane-at-a-time paths of `set_pc`).
        check_branch(exists, LaneMask(0b1001), Pc(6), Pc(9), Pc(9));
        check_branch(exists, exists.minus(LaneMask(0b1001)), Pc(6), Pc(9), Pc(9));
    }
}

#[test]
fn a_whole_warp_at_syncthreads_releases_as_the_general_test_says() {
    for exists in [LaneMask::FULL, LaneMask(0x0000_ffff)] {
        let mut w = ItsWarp::new(exists);
        w.advance(exists, Pc(0), Pc(3));
        assert_eq!(w.candidate(), Some((Pc(3), exists)));
        w.arrive_at_barrier(exists, Pc(3));
        assert!(w.arrived_whole.0);
        let mut general = w.clone();
        general.arrived_whole.0 = false;
        assert!(w.at_one_barrier() && general.at_one_barrier());
        assert!(w.barrier_arrived(exists));
        w.release_barrier();
        general.release_barrier();
        assert_eq!(w, general);
        assert_eq!(w.converged, Some(exists));
        assert_eq!(w.candidate(), Some((Pc(4), exists)));
    }
}

#[test]
fn a_warp_with_nothing_ready_stays_stalled_until_its_state_changes() {
    let mut w = ItsWarp::new(LaneMask::FULL);
    let half = LaneMask(0xffff);
    w.diverge(LaneMask::FULL, Pc(0), half, Pc(1), Pc(4), Pc(6));
    assert_eq!(w.candidate(), Some((Pc(1), half)));
    // The running side waits at a barrier; the other side, chosen next, waits too.
    w.arrive_at_barrier(half, Pc(1));
    assert_eq!(w.candidate(), Some((Pc(4), LaneMask::FULL.minus(half))));
    w.arrive_at_barrier(LaneMask::FULL.minus(half), Pc(4));
    assert_eq!(w.candidate(), None);
    assert!(w.stalled.0);
    assert_eq!(w.candidate(), None);
    // Released (one barrier instruction or not, the machine decides): both sides are ready again.
    w.release_barrier();
    assert!(!w.stalled.0);
    assert!(w.candidate().is_some());
}
