//! Everything the user can ask for. Keys and mouse events map to these; only `update` changes state.

use serde::Deserialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
pub enum Action {
    /// Issue one instruction.
    Step,
    /// Go back one instruction (time travel).
    StepBack,
    /// Ask for a step number and go there.
    Goto,
    /// Ask for an instructor's note at this step (recorded with the session).
    Note,
    /// Run until the selected warp reaches another source line.
    StepLine,
    /// Run to a breakpoint, a divergence (if enabled), a fault, a deadlock or the end.
    Continue,
    ToggleBreakpoint,
    ToggleBreakOnDivergence,
    NextWarp,
    PrevWarp,
    NextBlock,
    PrevBlock,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    FocusNext,
    FocusPrev,
    /// Pre-Volta <-> ITS, keeping kernel, breakpoints and step.
    SwitchMode,
    Restart,
    NextTheme,
    Help,
    /// Close an overlay (Esc).
    Close,
    /// Context action: in the source pane, toggle a breakpoint; in the warps pane, go to the warp's line.
    Activate,
    Quit,
    /// Open / close the side-by-side comparison of pre-Volta and ITS.
    Compare,
    /// Ask for a breakpoint spec (`line 28 if tid == 5`, `divergence`, `active < 16`, `write out[3]`, ...).
    BreakSpec,
    /// While recording: mark a quiz point here (asks for the question kind).
    QuizHere,
    /// Select the next lane of the selected warp (the detail pane says why it is or is not running).
    NextLane,
    PrevLane,
    /// Go back to just before the divergent branch that masked the selected lane issued.
    JumpToBranch,
    /// Show / hide the shared-memory bank view in the metrics pane.
    BankView,
    /// Show / hide the global-memory coalescing view in the metrics pane.
    CoalescingView,
    /// A whole program: finish this launch at full speed and stop at the start of the next one.
    NextLaunch,
    /// A whole program: go to the start of the previous launch (the host code runs again up to it).
    PrevLaunch,
    /// Open / close the Lanes pane: `:p` and `:w` expressions across the selected warp's lanes.
    LanesPane,
    /// The Lanes pane: every warp of the block, or the selected warp's lanes.
    LanesAllWarps,
    /// Ask for text and move the source cursor to the next line containing it (an empty answer repeats).
    Search,
    /// Move the source cursor to the next line containing the last searched text.
    SearchNext,
    /// Ask for a source line number and move the cursor there.
    GotoLine,
    /// Scroll the source's long lines left (back towards their start).
    ScrollLeft,
    /// Scroll the source's long lines right (to see how they continue).
    ScrollRight,
    /// Scroll a long stop explanation in the banner (back to its top after the end).
    ScrollBanner,
}

impl Action {
    /// What the help overlay says about it.
    pub fn describe(self) -> &'static str {
        match self {
            Action::Step => "step one instruction",
            Action::StepBack => "step back one instruction",
            Action::Goto => "go to step N; :p EXPR print, :w EXPR watch, :d N",
            Action::Note => "add a note at this step (shown on replay)",
            Action::StepLine => "step a source line (selected warp)",
            Action::Continue => "continue to breakpoint, divergence, fault, deadlock or end",
            Action::ToggleBreakpoint => "toggle breakpoint at the cursor line",
            Action::ToggleBreakOnDivergence => "toggle break on divergence",
            Action::NextWarp => "select next warp",
            Action::PrevWarp => "select previous warp",
            Action::NextBlock => "select next block",
            Action::PrevBlock => "select previous block",
            Action::Up => "cursor / scroll up",
            Action::Down => "cursor / scroll down",
            Action::PageUp => "page up",
            Action::PageDown => "page down",
            Action::Top => "go to top",
            Action::Bottom => "go to bottom",
            Action::FocusNext => "focus next pane",
            Action::FocusPrev => "focus previous pane",
            Action::SwitchMode => "switch pre-Volta / ITS (same step)",
            Action::Restart => "restart from step 0",
            Action::NextTheme => "next colour theme",
            Action::Help => "show this help",
            Action::Close => "close overlay",
            Action::Activate => "breakpoint (source) / go to warp's line (warps)",
            Action::Quit => "quit",
            Action::Compare => "compare pre-Volta and ITS side by side",
            Action::BreakSpec => "add a breakpoint spec (line N if COND, active < 16, ...)",
            Action::QuizHere => "mark a quiz point here (when recording)",
            Action::NextLane => "select next lane: why is it (in)active?",
            Action::PrevLane => "select previous lane",
            Action::JumpToBranch => "go back to the branch that masked the lane",
            Action::BankView => "shared-memory bank conflicts (metrics)",
            Action::CoalescingView => "global-memory coalescing: sectors per request (metrics)",
            Action::NextLaunch => "program: finish this launch, stop at the next",
            Action::PrevLaunch => "program: go to the previous launch's start",
            Action::LanesPane => "lanes pane: :p EXPR / :w EXPR across the warp's lanes",
            Action::LanesAllWarps => "lanes pane: every warp of the block / this warp",
            Action::Search => "search the source for text (empty: search again)",
            Action::SearchNext => "next line with the searched text",
            Action::GotoLine => "go to source line N",
            Action::ScrollLeft => "scroll long lines left (source; Program pane focused)",
            Action::ScrollRight => "scroll long lines right (source; Program pane focused)",
            Action::ScrollBanner => "scroll a long stop explanation (banner)",
        }
    }
}
