//! The page's source files, held in memory: the kernel and the headers its quoted `#include`s name.

use std::collections::BTreeMap;
use std::path::{Component, Path};

use crate::front::preprocess::IncludeLoader;

/// Texts by name (`kernel.cu`, `common/util.h`). `#include "x.h"` in `dir/k.cu` looks up `dir/x.h`;
/// names are compared after `.` and `..` are resolved, with `/` between folders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Files {
    texts: BTreeMap<String, String>,
}

impl Files {
    /// No files: every quoted `#include` is reported as missing (built-in headers still work).
    pub fn new() -> Files {
        Files::default()
    }

    /// Adds (or replaces) the file `name`.
    pub fn insert(&mut self, name: &str, text: impl Into<String>) {
        self.texts.insert(normalise(Path::new(name)), text.into());
    }

    /// The text of `name`, if the page supplied it.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.texts.get(&normalise(Path::new(name))).map(String::as_str)
    }

    /// The names held, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.texts.keys().map(String::as_str)
    }
}

impl IncludeLoader for Files {
    fn load(&self, path: &Path) -> Option<String> {
        self.texts.get(&normalise(path)).cloned()
    }
}

/// `a/./b/../c.h` -> `a/c.h`; a `..` above the top stays (and then names no file).
fn normalise(path: &Path) -> String {
    let mut parts: Vec<String> = vec![];
    for c in path.components() {
        match c {
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            Component::ParentDir => {
                if parts.last().is_some_and(|p| p != "..") {
                    parts.pop();
                } else {
                    parts.push("..".into());
                }
            }
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_compared_after_dots_resolve() {
        let mut f = Files::new();
        f.insert("./lib/util.h", "int x;");
        assert_eq!(f.load(Path::new("src/../lib/util.h")).as_deref(), Some("int x;"));
        assert_eq!(f.get("lib/util.h"), Some("int x;"));
        assert_eq!(f.load(Path::new("util.h")), None);
        assert_eq!(f.names().collect::<Vec<_>>(), ["lib/util.h"]);
    }
}
