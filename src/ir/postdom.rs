//! Immediate post-dominators with a virtual exit node, for reconvergence points.
//!
//! Post-dominators are dominators of the reversed graph rooted at a virtual exit that every `return` and the
//! kernel's end flow into. A block from which no exit is reachable (an infinite loop) gets an edge to the
//! virtual exit as well, so every block has an answer: threads diverging there never reconverge.

use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};

/// `succs[b]` lists block `b`'s successors; `exits[b]` says `b` leaves the kernel. Returns each block's
/// immediate post-dominator, `None` meaning the virtual exit.
pub fn immediate_post_dominators(succs: &[Vec<usize>], exits: &[bool]) -> Vec<Option<usize>> {
    let n = succs.len();
    let exit = n;
    let mut rev = DiGraph::<(), ()>::with_capacity(n + 1, n * 2);
    for _ in 0..=n {
        rev.add_node(());
    }
    let mut preds = vec![vec![]; n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            rev.add_edge(NodeIndex::new(s), NodeIndex::new(b), ());
            preds[s].push(b);
        }
    }
    for (b, &is_exit) in exits.iter().enumerate() {
        if is_exit {
            rev.add_edge(NodeIndex::new(exit), NodeIndex::new(b), ());
        }
    }
    // Blocks that cannot reach an exit: connect them, then recompute what is reachable.
    let reaches = |rev: &DiGraph<(), ()>| {
        let mut seen = vec![false; n + 1];
        let mut stack = vec![exit];
        seen[exit] = true;
        while let Some(v) = stack.pop() {
            for w in rev.neighbors(NodeIndex::new(v)) {
                if !seen[w.index()] {
                    seen[w.index()] = true;
                    stack.push(w.index());
                }
            }
        }
        seen
    };
    let mut seen = reaches(&rev);
    // Connect the last block (in order) of each stuck region first; one edge often frees a whole loop.
    for b in (0..n).rev() {
        if !seen[b] {
            rev.add_edge(NodeIndex::new(exit), NodeIndex::new(b), ());
            seen = reaches(&rev);
        }
    }
    let doms = simple_fast(&rev, NodeIndex::new(exit));
    (0..n).map(|b| doms.immediate_dominator(NodeIndex::new(b)).map(|d| d.index()).filter(|&d| d != exit)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond_reconverges_at_join() {
        // 0 -> 1, 2 -> 3 -> exit
        let succs = vec![vec![1, 2], vec![3], vec![3], vec![]];
        let exits = vec![false, false, false, true];
        assert_eq!(immediate_post_dominators(&succs, &exits), vec![Some(3), Some(3), Some(3), None]);
    }

    #[test]
    fn early_return_reconverges_at_exit() {
        // 0 -> 1 (return), 2 -> exit
        let succs = vec![vec![1, 2], vec![], vec![]];
        let exits = vec![false, true, true];
        assert_eq!(immediate_post_dominators(&succs, &exits), vec![None, None, None]);
    }

    #[test]
    fn infinite_loop_still_has_answers() {
        // 0 -> 1 <-> 1 (spins forever), 0 -> 2 exit
        let succs = vec![vec![1, 2], vec![1], vec![]];
        let exits = vec![false, false, true];
        assert_eq!(immediate_post_dominators(&succs, &exits), vec![None, None, None]);
    }
}
