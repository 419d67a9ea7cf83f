//! Unsupported constructs only matter where they run: a file-scope item (function, struct, typedef,
//! variable) that uses one is set aside as [`Unavailable`] with the construct's diagnostic, and the rest of the
//! file is read on. Type checking reports the diagnostic where the launched kernel reaches the item, and a
//! warning otherwise. Syntax errors are never set aside: they stay errors wherever they are.

use super::*;

impl Parser<'_> {
    /// Has the current file-scope item met an unsupported construct? (Then its body is not read on.)
    pub(super) fn unsupported_in_item(&self) -> bool {
        self.diags.get(self.item_diags..).is_some_and(|new| new.iter().any(|d| d.code == ErrorCode::Unsupported))
    }

    /// Is `name` an item set aside as a type? It still reads as a type name, so that what uses it parses.
    pub(super) fn unavailable_type(&self, name: &str) -> bool {
        self.unavailable.iter().any(|u| u.kind == ItemKind::Type && u.name == name)
    }

    /// At `cudaStream_t s` (a host-only library type, then a name or `*`) inside a function.
    pub(super) fn starts_host_type_decl(&self) -> bool {
        // `std::ofstream out;`: past the namespaces.
        let mut i = 0;
        while matches!(self.peek_kind(i), TokKind::Ident(_))
            && *self.peek_kind(i + 1) == TokKind::Punct(Punct::ColonColon)
        {
            i += 2;
        }
        matches!(self.peek_kind(i), TokKind::Ident(n) if host_type_name(n).is_some())
            && matches!(self.peek_kind(i + 1), TokKind::Ident(_) | TokKind::Punct(Punct::Star))
    }

    /// After the file-scope item that began at token `start`: if it met an unsupported construct, sets it
    /// aside (skipping the rest of it) and returns `Ok(None)`; otherwise returns `item` as it is.
    pub(super) fn set_aside(
        &mut self,
        start: usize,
        item: Result<Option<TopItem>, Reported>,
    ) -> Result<Option<TopItem>, Reported> {
        let from = self.item_diags.min(self.diags.len());
        let Some(first) = self.diags[from..].iter().position(|d| d.code == ErrorCode::Unsupported) else {
            return item;
        };
        let named = match &item {
            Ok(Some(TopItem::Function(f))) => Some((f.name.name.clone(), fn_item(f.kind))),
            Ok(Some(TopItem::Global(g))) => {
                g.decl.declarators.first().map(|d| (d.name.name.clone(), ItemKind::Variable))
            }
            _ => self.item_name(start),
        };
        // `main` makes the file a whole program, which is a statement about the file, not one item.
        let Some((name, kind)) = named.filter(|(n, _)| n != "main") else {
            // Its error stands; the rest of `main` is skipped, not read as file-scope items.
            if item.is_err() {
                self.skip_item(start, ItemKind::Function);
                return Ok(None);
            }
            return item;
        };
        let diag = self.diags.remove(from + first);
        // What follows the construct in the item was not read (or read only to skip it): keep the syntax
        // errors before it, drop further unsupported ones.
        let mut i = from;
        while i < self.diags.len() {
            if self.diags[i].code == ErrorCode::Unsupported && i >= from + first {
                self.diags.remove(i);
            } else {
                i += 1;
            }
        }
        if item.is_err() {
            self.skip_item(start, kind);
        }
        self.unavailable.push(Unavailable { name, kind, diag });
        Ok(None)
    }

    /// Device functions declared but never defined here are defined in another file (nvcc's separate
    /// compilation, `-rdc=true`): unavailable, an error only if reached code calls one.
    pub(super) fn undefined_prototypes(&mut self, functions: &[Function]) {
        for (name, sig) in std::mem::take(&mut self.prototypes) {
            let defined = functions.iter().any(|f| f.name.name == name.name)
                || self.templates.defs.contains_key(&name.name)
                || self.unavailable.iter().any(|u| u.name == name.name);
            if !defined {
                let d = Diagnostic::unsupported(sig, "device functions defined in another file (separate compilation)")
                    .label(format!("`{}` is declared here but not defined in this file", name.name))
                    .hint("put the definition in this file (or `#include` the file that has it)");
                self.unavailable.push(Unavailable { name: name.name, kind: ItemKind::Function, diag: d });
            }
        }
    }

    /// Skips the file-scope item that begins at token `start`: to its `;`, or its body's closing brace (and a
    /// type's or variable's declarators up to the `;`).
    fn skip_item(&mut self, start: usize, kind: ItemKind) {
        self.pos = start;
        let mut depth = 0i32;
        while !self.at_eof() {
            match self.kind() {
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth -= 1;
                    if depth <= 0 {
                        self.bump();
                        if matches!(kind, ItemKind::Type | ItemKind::Variable) {
                            while !self.at_eof() && !self.is(Punct::LBrace) && !self.is(Punct::RBrace) {
                                if self.eat(Punct::Semi) {
                                    break;
                                }
                                self.bump();
                            }
                        }
                        return;
                    }
                }
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.bump();
                    return;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// The name and kind of the file-scope item that begins at token `start`, read from its tokens: a struct's
    /// or class's name, a typedef's new name, a function's name (the name before its `(`), else a variable's.
    fn item_name(&self, start: usize) -> Option<(String, ItemKind)> {
        let toks = &self.toks[start.min(self.toks.len())..];
        let kind = |i: usize| toks.get(i).map_or(&TokKind::Eof, |t| &t.kind);
        let mut i = 0;
        // `template <class T>`: its parameters name nothing here.
        if *kind(0) == TokKind::Kw(Kw::Template) && *kind(1) == TokKind::Punct(Punct::Lt) {
            let mut angle = 0i32;
            i = 1;
            loop {
                match kind(i) {
                    TokKind::Punct(Punct::Lt) => angle += 1,
                    TokKind::Punct(Punct::Gt) => angle -= 1,
                    TokKind::Punct(Punct::Shr) => angle -= 2,
                    TokKind::Eof => return None,
                    _ => {}
                }
                i += 1;
                if angle <= 0 {
                    break;
                }
            }
        }
        let typedef = *kind(i) == TokKind::Kw(Kw::Typedef);
        let (mut kernel, mut parens, mut braces) = (false, 0i32, 0i32);
        let mut last = None;
        loop {
            match kind(i) {
                TokKind::Eof => break,
                TokKind::Kw(Kw::Global) => kernel = true,
                TokKind::Kw(Kw::Struct | Kw::Union | Kw::Enum) if !typedef && parens == 0 && braces == 0 => {
                    // `struct [__align__(16)] Name {` or `class Name : public Base {`: a definition.
                    let mut j = i + 1;
                    let mut name = None;
                    loop {
                        match kind(j) {
                            TokKind::Ident(n) if *kind(j + 1) == TokKind::Punct(Punct::LParen) => {
                                let _ = n;
                                j += 2;
                                let mut d = 1;
                                while d > 0 && *kind(j) != TokKind::Eof {
                                    match kind(j) {
                                        TokKind::Punct(Punct::LParen) => d += 1,
                                        TokKind::Punct(Punct::RParen) => d -= 1,
                                        _ => {}
                                    }
                                    j += 1;
                                }
                                continue;
                            }
                            TokKind::Ident(n) => name = Some(n.clone()),
                            TokKind::Kw(Kw::Struct) => {}
                            _ => break,
                        }
                        j += 1;
                    }
                    if let Some(n) = name
                        && matches!(kind(j), TokKind::Punct(Punct::LBrace | Punct::Colon))
                    {
                        return Some((n, ItemKind::Type));
                    }
                }
                TokKind::Ident(n)
                    if !typedef
                        && parens == 0
                        && braces == 0
                        && *kind(i + 1) == TokKind::Punct(Punct::LParen)
                        && !matches!(n.as_str(), "__launch_bounds__" | "__align__" | "alignas" | "__declspec") =>
                {
                    return Some((n.clone(), if kernel { ItemKind::Kernel } else { ItemKind::Function }));
                }
                TokKind::Ident(n) if parens == 0 && braces == 0 => last = Some(n.clone()),
                TokKind::Punct(Punct::LParen | Punct::LBracket) => parens += 1,
                TokKind::Punct(Punct::RParen | Punct::RBracket) => parens -= 1,
                TokKind::Punct(Punct::LBrace) if typedef => braces += 1,
                TokKind::Punct(Punct::RBrace) if typedef => braces -= 1,
                TokKind::Punct(Punct::LBrace | Punct::Assign) if !typedef && parens == 0 => break,
                TokKind::Punct(Punct::Semi) if braces == 0 => break,
                _ => {}
            }
            i += 1;
        }
        last.map(|n| (n, if typedef { ItemKind::Type } else { ItemKind::Variable }))
    }
}

fn fn_item(kind: FnKind) -> ItemKind {
    match kind {
        FnKind::Global => ItemKind::Kernel,
        FnKind::Device | FnKind::HostRef => ItemKind::Function,
    }
}
