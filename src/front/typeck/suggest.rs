//! "Did you mean" hints: the visible name nearest a misspelt one.

/// The visible name closest to a misspelt one (edit distance at most 2).
pub(super) fn closest(name: &str, candidates: &[String]) -> Option<String> {
    /// Edits from `a` to `b`, an adjacent transposition (`tdi` for `tid`) counting as one, like the typo it is
    /// (optimal string alignment distance).
    fn dist(a: &str, b: &str) -> usize {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for (i, row) in d.iter_mut().enumerate() {
            row[0] = i;
        }
        for (j, x) in d[0].iter_mut().enumerate() {
            *x = j;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let subst = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]) as usize;
                d[i][j] = subst.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                }
            }
        }
        d[a.len()][b.len()]
    }
    // The distance takes time (and memory) in the product of the lengths: past typo-sized names, no hint.
    if name.len() > 64 {
        return None;
    }
    let limit = if name.len() <= 3 { 1 } else { 2 };
    candidates
        .iter()
        .filter(|c| c.as_str() != name && c.len().abs_diff(name.len()) <= limit)
        .map(|c| (dist(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, (*c).clone()))
        .map(|(_, c)| c.clone())
}
