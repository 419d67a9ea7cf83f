//! Lambda expressions in host code: the capture list, the parameters, `mutable`, the written result type and
//! the body (the host interpreter makes each a closure object: `src/host/lambda.rs`).

use super::*;

impl Parser<'_> {
    /// `[captures](params) mutable -> R { body }` (host code): the capture list (`=`, `&`, `x`, `&x`), the
    /// parameters, the written result type. `mutable` changes nothing here: a closure's copies are its own
    /// (`src/host/lambda.rs`), and a body that assigns one is what `mutable` allows.
    pub(super) fn lambda(&mut self) -> Result<Expr, Reported> {
        let start = self.span();
        self.bump();
        let mut captures = Captures::default();
        while !self.is(Punct::RBracket) && !self.at_eof() {
            let at = self.span();
            match self.kind().clone() {
                TokKind::Punct(Punct::Assign) if *self.peek_kind(1) != TokKind::Punct(Punct::Assign) => {
                    self.bump();
                    captures.default = CaptureDefault::Copy;
                }
                TokKind::Punct(Punct::Amp) if matches!(self.peek_kind(1), TokKind::Ident(_)) => {
                    self.bump();
                    let name = self.ident("a captured name")?;
                    captures.names.push(Capture { name, by_ref: true });
                }
                TokKind::Punct(Punct::Amp) => {
                    self.bump();
                    captures.default = CaptureDefault::Ref;
                }
                TokKind::Ident(_) if *self.peek_kind(1) != TokKind::Punct(Punct::Assign) => {
                    let name = self.ident("a captured name")?;
                    captures.names.push(Capture { name, by_ref: false });
                }
                _ => {
                    return Err(self.error(Diagnostic::unsupported(
                        at,
                        "this lambda capture (`this`, `*this` and `x = value` captures) yet",
                    )));
                }
            }
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBracket)?;
        // `[] __device__ (int a, int b) { ... }`: an extended lambda's execution space says nothing more here.
        while matches!(self.kind(), TokKind::Kw(Kw::Device | Kw::Host)) {
            self.bump();
        }
        let params = if self.is(Punct::LParen) { self.param_list()? } else { vec![] };
        // `mutable`, `noexcept`: nothing to do (see above).
        while matches!(self.kind(), TokKind::Ident(w) if w == "mutable" || w == "noexcept") {
            self.bump();
        }
        let ret = if self.eat(Punct::Arrow) { Some(Box::new(self.type_spec()?)) } else { None };
        if !self.is(Punct::LBrace) {
            return Err(self.expected("the lambda's body `{ ... }`"));
        }
        let body = self.block()?;
        Ok(Expr { kind: ExprKind::Lambda { params, body, captures, ret }, span: start.to(self.prev_span()) })
    }
}
