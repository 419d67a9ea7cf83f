//! Stream capture and CUDA graphs: between `cudaStreamBeginCapture` and `cudaStreamEndCapture` the launches
//! and asynchronous copies and sets are recorded, not run (on every stream: the streams a capture forks to
//! through events join it, and there is one queue here); `cudaGraphInstantiate` copies a graph's nodes and
//! `cudaGraphLaunch` runs them in the order they were captured, each launch with the argument values it had
//! when captured, as on hardware. A call that waits for the device while capturing fails with
//! `cudaErrorStreamCaptureUnsupported` and spoils the capture (`cudaStreamEndCapture` then fails too).

use super::*;
use crate::host::LaunchRequest;
use crate::host::interp::{Interp, Unwind};

/// One piece of captured work.
#[derive(Clone, Debug)]
pub(super) enum Node {
    Kernel(LaunchRequest),
    Copy { dst: u64, src: u64, bytes: u64, kind: u32 },
    Set { addr: u64, value: u8, bytes: u64 },
}

/// A capture under way.
#[derive(Debug)]
pub(super) struct Capture {
    stream: u64,
    nodes: Vec<Node>,
    /// A call that may not be captured was made: the capture fails at its end.
    spoiled: bool,
}

/// Graph and graph-instance handles: their index plus this, so that 0 (NULL) is no graph.
const GRAPH_BASE: u64 = 0x6000;

/// The graph `handle` names in `list`, while it exists.
fn slot(list: &mut [Option<Vec<Node>>], handle: u64) -> Option<&mut Option<Vec<Node>>> {
    let i = handle.checked_sub(GRAPH_BASE)? as usize;
    list.get_mut(i).filter(|g| g.is_some())
}

impl Interp<'_> {
    /// Records a launch while a capture is under way: true when it was captured (not run).
    pub(super) fn capture_launch(&mut self, req: &LaunchRequest) -> bool {
        match self.rt.capture.as_mut() {
            Some(c) => {
                c.nodes.push(Node::Kernel(req.clone()));
                true
            }
            None => false,
        }
    }

    /// A runtime call while a capture is under way: Some(its status) when the capture took it (recorded,
    /// ignored or refused), None when it runs as usual.
    pub(super) fn captured(&mut self, api: Api, v: &LibArgs) -> Option<u64> {
        let c = self.rt.capture.as_mut()?;
        match api {
            Api::MemcpyAsync => c.nodes.push(Node::Copy { dst: v[0], src: v[1], bytes: v[2], kind: v[3] as u32 }),
            Api::MemsetAsync => c.nodes.push(Node::Set { addr: v[0], value: v[1] as u8, bytes: v[2] }),
            // A fork or join between captured streams: an edge of the graph, not a node.
            Api::EventRecord => {}
            Api::Memcpy
            | Api::Memset
            | Api::Memcpy3D
            | Api::Memcpy2D
            | Api::Memcpy2DAsync
            | Api::Memset2D
            | Api::DeviceSynchronize
            | Api::StreamSynchronize
            | Api::EventSynchronize
            | Api::StreamQuery
            | Api::EventQuery
            | Api::GraphLaunch => {
                c.spoiled = true;
                return Some(self.status(CAPTURE_UNSUPPORTED));
            }
            _ => return None,
        }
        Some(self.status(SUCCESS))
    }

    fn new_graph(list: &mut Vec<Option<Vec<Node>>>, nodes: Vec<Node>) -> u64 {
        list.push(Some(nodes));
        GRAPH_BASE + list.len() as u64 - 1
    }

    /// The capture and graph calls.
    pub(super) fn graph_call(&mut self, api: Api, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        let code = match api {
            Api::StreamBeginCapture => match () {
                // The legacy default stream cannot be captured.
                _ if v[0] == 0 || v[0] == 1 => CAPTURE_UNSUPPORTED,
                _ if !self.stream_ok(v[0]) => INVALID_RESOURCE_HANDLE,
                _ if self.rt.capture.is_some() => ILLEGAL_STATE,
                _ => {
                    self.rt.capture = Some(Capture { stream: v[0], nodes: vec![], spoiled: false });
                    SUCCESS
                }
            },
            Api::StreamEndCapture => match self.rt.capture.take_if(|c| c.stream == v[0]) {
                None => ILLEGAL_STATE,
                Some(c) if c.spoiled => {
                    self.out_param(v[1], 8, 0, e)?;
                    901
                }
                Some(c) => {
                    let g = Self::new_graph(&mut self.rt.graphs, c.nodes);
                    self.out_param(v[1], 8, g, e)?;
                    SUCCESS
                }
            },
            Api::StreamIsCapturing => {
                let on = self.rt.capture.as_ref().is_some_and(|c| c.stream == v[0]);
                self.out_param(v[1], 4, on as u64, e)?;
                SUCCESS
            }
            Api::GraphCreate => {
                let g = Self::new_graph(&mut self.rt.graphs, vec![]);
                self.out_param(v[0], 8, g, e)?;
                SUCCESS
            }
            Api::GraphInstantiate => match slot(&mut self.rt.graphs, v[1]).and_then(|g| g.clone()) {
                Some(nodes) => {
                    let x = Self::new_graph(&mut self.rt.execs, nodes);
                    self.out_param(v[0], 8, x, e)?;
                    SUCCESS
                }
                None => INVALID_VALUE,
            },
            Api::GraphGetNodes => match slot(&mut self.rt.graphs, v[0]).and_then(|g| g.as_ref().map(Vec::len)) {
                Some(n) => {
                    let n = n as u64;
                    if v[1] != 0 {
                        // Room for `*numNodes` handles: the nodes' (index + 1), then NULLs.
                        let room = self.load(v[2], Scalar::U64, None, e.span)?;
                        for i in 0..room {
                            self.out_param(v[1] + 8 * i, 8, if i < n { i + 1 } else { 0 }, e)?;
                        }
                        self.out_param(v[2], 8, n.min(room), e)?;
                    } else {
                        self.out_param(v[2], 8, n, e)?;
                    }
                    SUCCESS
                }
                None => INVALID_VALUE,
            },
            Api::GraphDestroy | Api::GraphExecDestroy => {
                let list = if api == Api::GraphDestroy { &mut self.rt.graphs } else { &mut self.rt.execs };
                match slot(list, v[0]) {
                    Some(g) => {
                        *g = None;
                        SUCCESS
                    }
                    None => INVALID_VALUE,
                }
            }
            _ => {
                // cudaGraphLaunch: the instance's work in captured order, on the one queue.
                let Some(nodes) = slot(&mut self.rt.execs, v[0]).and_then(|g| g.clone()) else {
                    return Ok(self.status(INVALID_VALUE));
                };
                if !self.stream_ok(v[1]) {
                    return Ok(self.status(INVALID_RESOURCE_HANDLE));
                }
                for node in nodes {
                    match node {
                        Node::Kernel(mut req) => {
                            self.settle();
                            self.flush_printf();
                            self.rt.clock.host_ns += timing::LAUNCH_NS;
                            if self.rt.sticky != 0 {
                                break;
                            }
                            req.index = self.rt.launches + 1;
                            self.submit(req)?;
                        }
                        Node::Copy { dst, src, bytes, kind } => {
                            let code = self.memcpy(dst, src, bytes, kind, false, "cudaGraphLaunch", e)?;
                            if code != SUCCESS {
                                return Ok(self.status(code));
                            }
                        }
                        Node::Set { addr, value, bytes } => {
                            let line = self.line(e.span);
                            let code = self.memset(addr, value, bytes, line);
                            if code != SUCCESS {
                                return Ok(self.status(code));
                            }
                        }
                    }
                }
                SUCCESS
            }
        };
        Ok(self.status(code))
    }
}
