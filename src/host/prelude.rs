//! `<algorithm>` and `<numeric>` calls that take a function (a lambda, a closure variable, a functor): host
//! function templates written in the host language below, parsed with every program and instantiated as a
//! program's own templates are (`std::for_each(v.begin(), v.end(), f)` is `__warpdbg_for_each<float, F>`),
//! so each call of the function runs as a call of its `operator()`, checked like any host code. A template's
//! tokens take the span of the call that instantiates it: a fault inside one is reported at that call's line.
//!
//! `std::sort` with a comparison is libstdc++'s introsort step for step (median of three moved to the front,
//! unguarded partition, a heap sort past twice the depth of a balanced split, insertion sort of runs of 16),
//! so elements that compare equal end where g++'s build leaves them. `std::stable_sort` is a merge sort: any
//! stable sort gives the same order.

use std::collections::HashMap;

use crate::front::source::{FileId, Span};
use crate::front::template::TemplateDef;

/// The prefix of the templates here: no program's names start so.
pub(super) const PRELUDE: &str = "__warpdbg_";

const TEXT: &str = r#"
template <typename T, typename F> void __warpdbg_for_each(T *first, T *last, F f) {
    for (; first != last; ++first) f(*first);
}
template <typename T, typename U, typename F> U *__warpdbg_transform(T *first, T *last, U *out, F f) {
    for (; first != last; ++first, ++out) *out = f(*first);
    return out;
}
template <typename T, typename S, typename U, typename F>
U *__warpdbg_transform2(T *first, T *last, S *second, U *out, F f) {
    for (; first != last; ++first, ++second, ++out) *out = f(*first, *second);
    return out;
}
template <typename T, typename F> void __warpdbg_generate(T *first, T *last, F f) {
    for (; first != last; ++first) *first = f();
}
template <typename T, typename F> long __warpdbg_count_if(T *first, T *last, F f) {
    long n = 0;
    for (; first != last; ++first) if (f(*first)) n++;
    return n;
}
template <typename T, typename F> T *__warpdbg_find_if(T *first, T *last, F f) {
    for (; first != last; ++first) if (f(*first)) return first;
    return last;
}
template <typename T, typename F> bool __warpdbg_all_of(T *first, T *last, F f) {
    for (; first != last; ++first) if (!f(*first)) return false;
    return true;
}
template <typename T, typename F> bool __warpdbg_any_of(T *first, T *last, F f) {
    for (; first != last; ++first) if (f(*first)) return true;
    return false;
}
template <typename T, typename F> bool __warpdbg_none_of(T *first, T *last, F f) {
    for (; first != last; ++first) if (f(*first)) return false;
    return true;
}
template <typename T, typename A, typename F> A __warpdbg_accumulate(T *first, T *last, A init, F f) {
    for (; first != last; ++first) init = f(init, *first);
    return init;
}
template <typename T, typename C> T *__warpdbg_min_element(T *first, T *last, C comp) {
    if (first == last) return first;
    T *best = first;
    while (++first != last) if (comp(*first, *best)) best = first;
    return best;
}
template <typename T, typename C> T *__warpdbg_max_element(T *first, T *last, C comp) {
    if (first == last) return first;
    T *best = first;
    while (++first != last) if (comp(*best, *first)) best = first;
    return best;
}
template <typename T, typename C> void __warpdbg_median_to_first(T *result, T *a, T *b, T *c, C comp) {
    T *pick = b;
    if (comp(*a, *b)) {
        if (comp(*b, *c)) pick = b;
        else if (comp(*a, *c)) pick = c;
        else pick = a;
    } else if (comp(*a, *c)) pick = a;
    else if (comp(*b, *c)) pick = c;
    T t = *result;
    *result = *pick;
    *pick = t;
}
template <typename T, typename C> T *__warpdbg_partition(T *first, T *last, T *pivot, C comp) {
    while (true) {
        while (comp(*first, *pivot)) ++first;
        --last;
        while (comp(*pivot, *last)) --last;
        if (!(first < last)) return first;
        T t = *first;
        *first = *last;
        *last = t;
        ++first;
    }
}
template <typename T, typename C> void __warpdbg_adjust_heap(T *first, long hole, long len, T value, C comp) {
    long top = hole;
    long child = hole;
    while (child < (len - 1) / 2) {
        child = 2 * (child + 1);
        if (comp(first[child], first[child - 1])) child--;
        first[hole] = first[child];
        hole = child;
    }
    if ((len & 1) == 0 && child == (len - 2) / 2) {
        child = 2 * (child + 1);
        first[hole] = first[child - 1];
        hole = child - 1;
    }
    long parent = (hole - 1) / 2;
    while (hole > top && comp(first[parent], value)) {
        first[hole] = first[parent];
        hole = parent;
        parent = (hole - 1) / 2;
    }
    first[hole] = value;
}
template <typename T, typename C> void __warpdbg_heap_sort(T *first, T *last, C comp) {
    long len = last - first;
    if (len >= 2) {
        long parent = (len - 2) / 2;
        while (true) {
            T value = first[parent];
            __warpdbg_adjust_heap(first, parent, len, value, comp);
            if (parent == 0) break;
            parent--;
        }
    }
    while (last - first > 1) {
        --last;
        T value = *last;
        *last = *first;
        long n = last - first;
        __warpdbg_adjust_heap(first, 0L, n, value, comp);
    }
}
template <typename T, typename C> void __warpdbg_introsort(T *first, T *last, long depth, C comp) {
    while (last - first > 16) {
        if (depth == 0) {
            __warpdbg_heap_sort(first, last, comp);
            return;
        }
        --depth;
        T *mid = first + (last - first) / 2;
        __warpdbg_median_to_first(first, first + 1, mid, last - 1, comp);
        T *cut = __warpdbg_partition(first + 1, last, first, comp);
        __warpdbg_introsort(cut, last, depth, comp);
        last = cut;
    }
}
template <typename T, typename C> void __warpdbg_linear_insert(T *last, C comp) {
    T value = *last;
    T *next = last - 1;
    while (comp(value, *next)) {
        *last = *next;
        last = next;
        --next;
    }
    *last = value;
}
template <typename T, typename C> void __warpdbg_insertion_sort(T *first, T *last, C comp) {
    if (first == last) return;
    for (T *i = first + 1; i != last; ++i) {
        if (comp(*i, *first)) {
            T value = *i;
            for (T *p = i; p != first; --p) *p = *(p - 1);
            *first = value;
        } else {
            __warpdbg_linear_insert(i, comp);
        }
    }
}
template <typename T, typename C> void __warpdbg_sort(T *first, T *last, C comp) {
    if (first == last) return;
    long n = last - first;
    long lg = 0;
    while ((n >> (lg + 1)) != 0) lg++;
    __warpdbg_introsort(first, last, lg * 2, comp);
    if (n > 16) {
        __warpdbg_insertion_sort(first, first + 16, comp);
        for (T *i = first + 16; i != last; ++i) __warpdbg_linear_insert(i, comp);
    } else {
        __warpdbg_insertion_sort(first, last, comp);
    }
}
template <typename T, typename C> void __warpdbg_stable_sort(T *first, T *last, C comp) {
    long n = last - first;
    if (n < 2) return;
    T *buf = (T *)malloc(n * sizeof(T));
    for (long w = 1; w < n; w *= 2) {
        for (long lo = 0; lo < n - w; lo += 2 * w) {
            long mid = lo + w;
            long hi = lo + 2 * w < n ? lo + 2 * w : n;
            long i = lo;
            long j = mid;
            long k = lo;
            while (i < mid && j < hi) {
                if (comp(first[j], first[i])) buf[k++] = first[j++];
                else buf[k++] = first[i++];
            }
            while (i < mid) buf[k++] = first[i++];
            while (j < hi) buf[k++] = first[j++];
            for (k = lo; k < hi; k++) first[k] = buf[k];
        }
    }
    free(buf);
}
// `std::sort` of a range of `std::pair`s: `<utility>`'s `operator<`, lexicographic.
template <typename T> void __warpdbg_sort_pairs(T *first, T *last) {
    __warpdbg_sort(first, last, [](const T &a, const T &b) {
        return a.first < b.first || (!(b.first < a.first) && a.second < b.second);
    });
}
template <typename T> void __warpdbg_stable_sort_pairs(T *first, T *last) {
    __warpdbg_stable_sort(first, last, [](const T &a, const T &b) {
        return a.first < b.first || (!(b.first < a.first) && a.second < b.second);
    });
}
// C's `qsort`, as glibc's (before 2.37) sorts with a comparison function: its merge sort, top down, halves of
// n / 2 and the rest, the left element first where the comparison says equal (stable). A comparison that is
// a total order gives the one sorted order whichever algorithm; this one also calls it as glibc does.
template <typename T>
void __warpdbg_msort(T *tag, char *b, unsigned long n, unsigned long s, int (*cmp)(const void *, const void *), char *t) {
    if (n <= 1) return;
    unsigned long n1 = n / 2;
    unsigned long n2 = n - n1;
    char *b1 = b;
    char *b2 = b + n1 * s;
    __warpdbg_msort(tag, b1, n1, s, cmp, t);
    __warpdbg_msort(tag, b2, n2, s, cmp, t);
    char *tmp = t;
    while (n1 > 0 && n2 > 0) {
        if (cmp(b1, b2) <= 0) {
            memcpy(tmp, b1, s);
            b1 += s;
            --n1;
        } else {
            memcpy(tmp, b2, s);
            b2 += s;
            --n2;
        }
        tmp += s;
    }
    if (n1 > 0) memcpy(tmp, b1, n1 * s);
    memcpy(b, t, (n - n2) * s);
}
// (`T`, the element type, only makes these templates: a comparison's type is written out.)
template <typename T>
void __warpdbg_qsort(T *base, unsigned long n, unsigned long s, int (*cmp)(const void *, const void *)) {
    if (n < 2) return;
    char *t = (char *)malloc(n * s);
    __warpdbg_msort(base, (char *)base, n, s, cmp, t);
    free(t);
}
// C's `bsearch` as glibc's: halves [l, u) until the comparison says equal (not necessarily the first equal
// element), a null pointer when none is.
template <typename T>
void *__warpdbg_bsearch(const T *key, const void *base, unsigned long n, unsigned long s,
                        int (*cmp)(const void *, const void *)) {
    unsigned long l = 0;
    unsigned long u = n;
    while (l < u) {
        unsigned long idx = (l + u) / 2;
        const char *p = (const char *)base + idx * s;
        int c = cmp(key, p);
        if (c < 0) u = idx;
        else if (c > 0) l = idx + 1;
        else return (void *)p;
    }
    return 0;
}
// `<algorithm>` and `<numeric>` over a range without a function object, as libstdc++ computes them (the
// same element moves and comparisons, so `unique` leaves what g++'s build leaves past its result).
template <typename T> bool __warpdbg_is_sorted(T *first, T *last) {
    if (first == last) return true;
    for (T *next = first + 1; next != last; ++first, ++next)
        if (*next < *first) return false;
    return true;
}
template <typename T> T *__warpdbg_adjacent_find(T *first, T *last) {
    if (first == last) return last;
    T *next = first;
    while (++next != last) {
        if (*first == *next) return first;
        first = next;
    }
    return last;
}
template <typename T> T *__warpdbg_unique(T *first, T *last) {
    first = __warpdbg_adjacent_find(first, last);
    if (first == last) return last;
    T *dest = first;
    ++first;
    while (++first != last)
        if (!(*dest == *first)) *++dest = *first;
    return ++dest;
}
template <typename T, typename U> U *__warpdbg_partial_sum(T *first, T *last, U *out) {
    if (first == last) return out;
    T value = *first;
    *out = value;
    while (++first != last) {
        value = value + *first;
        *++out = value;
    }
    return ++out;
}
template <typename T, typename U> U *__warpdbg_adjacent_difference(T *first, T *last, U *out) {
    if (first == last) return out;
    T value = *first;
    *out = value;
    while (++first != last) {
        T next = *first;
        *++out = next - value;
        value = next;
    }
    return ++out;
}
template <typename T, typename U, typename V> V __warpdbg_inner_product(T *first, T *last, U *other, V init) {
    for (; first != last; ++first, ++other) init = init + *first * *other;
    return init;
}
template <typename T, typename V> T *__warpdbg_lower_bound(T *first, T *last, V value) {
    long len = last - first;
    while (len > 0) {
        long half = len >> 1;
        T *middle = first + half;
        if (*middle < value) {
            first = middle + 1;
            len = len - half - 1;
        } else {
            len = half;
        }
    }
    return first;
}
template <typename T, typename V> T *__warpdbg_upper_bound(T *first, T *last, V value) {
    long len = last - first;
    while (len > 0) {
        long half = len >> 1;
        T *middle = first + half;
        if (value < *middle) {
            len = half;
        } else {
            first = middle + 1;
            len = len - half - 1;
        }
    }
    return first;
}
template <typename T, typename V> bool __warpdbg_binary_search(T *first, T *last, V value) {
    T *i = __warpdbg_lower_bound(first, last, value);
    return i != last && !(value < *i);
}
// (The rotated contents are unique; libstdc++ gets there by cycles, this by three reversals.)
template <typename T> void __warpdbg_reverse_range(T *first, T *last) {
    while (first != last && first != --last) {
        T t = *first;
        *first = *last;
        *last = t;
        ++first;
    }
}
template <typename T> T *__warpdbg_rotate(T *first, T *middle, T *last) {
    __warpdbg_reverse_range(first, middle);
    __warpdbg_reverse_range(middle, last);
    __warpdbg_reverse_range(first, last);
    return first + (last - middle);
}
// C's `div`, `ldiv`, `lldiv`: the quotient truncated toward zero and the remainder (`A`, `B`: the operands'
// types, converted as the C function's parameters convert them).
template <typename A, typename B> div_t __warpdbg_div(A a, B b) {
    div_t r;
    r.quot = (int)a / (int)b;
    r.rem = (int)a % (int)b;
    return r;
}
template <typename A, typename B> ldiv_t __warpdbg_ldiv(A a, B b) {
    ldiv_t r;
    r.quot = (long)a / (long)b;
    r.rem = (long)a % (long)b;
    return r;
}
// `std::string`'s members over its characters (`src/host/string.rs`), as libstdc++ computes them; `C` is
// `char`. A position past the end is libstdc++'s `std::out_of_range`.
template <typename C> unsigned long __warpdbg_str_find(const C *s, const C *t, unsigned long pos) {
    unsigned long n = strlen(s);
    unsigned long m = strlen(t);
    for (unsigned long i = pos; i + m <= n; i++) {
        unsigned long j = 0;
        while (j < m && s[i + j] == t[j]) j++;
        if (j == m) return i;
    }
    return (unsigned long)-1;
}
template <typename C> unsigned long __warpdbg_str_rfind(const C *s, const C *t, unsigned long pos) {
    unsigned long n = strlen(s);
    unsigned long m = strlen(t);
    if (m > n) return (unsigned long)-1;
    unsigned long i = n - m < pos ? n - m : pos;
    while (true) {
        unsigned long j = 0;
        while (j < m && s[i + j] == t[j]) j++;
        if (j == m) return i;
        if (i == 0) return (unsigned long)-1;
        i--;
    }
}
template <typename C> char *__warpdbg_str_sub(const C *s, unsigned long pos, unsigned long len, const C *what) {
    unsigned long n = strlen(s);
    if (pos > n) {
        throw std::out_of_range(std::string("basic_string::") + what + ": __pos (which is " + std::to_string(pos)
                                + ") > this->size() (which is " + std::to_string(n) + ")");
    }
    if (len > n - pos) len = n - pos;
    char *t = (char *)malloc(len + 1);
    for (unsigned long i = 0; i < len; i++) t[i] = s[pos + i];
    t[len] = 0;
    char *r = __warpdbg_strjoin(t, "");
    free(t);
    return r;
}
template <typename C> char *__warpdbg_str_fill(unsigned long n, C c) {
    char *t = (char *)malloc(n + 1);
    for (unsigned long i = 0; i < n; i++) t[i] = c;
    t[n] = 0;
    char *r = __warpdbg_strjoin(t, "");
    free(t);
    return r;
}
template <typename C> char *__warpdbg_str_push(const char *s, C c) {
    char t[2];
    t[0] = c;
    t[1] = 0;
    return __warpdbg_strjoin(s, t);
}
template <typename C>
char *__warpdbg_str_splice(const C *s, unsigned long pos, unsigned long len, const C *t, const C *what) {
    unsigned long n = strlen(s);
    if (pos > n) {
        throw std::out_of_range(std::string("basic_string::") + what + ": __pos (which is " + std::to_string(pos)
                                + ") > this->size() (which is " + std::to_string(n) + ")");
    }
    if (len > n - pos) len = n - pos;
    unsigned long m = strlen(t);
    char *u = (char *)malloc(n - len + m + 1);
    for (unsigned long i = 0; i < pos; i++) u[i] = s[i];
    for (unsigned long i = 0; i < m; i++) u[pos + i] = t[i];
    for (unsigned long i = pos + len; i <= n; i++) u[i - len + m] = s[i];
    char *r = __warpdbg_strjoin(u, "");
    free(u);
    return r;
}
template <typename C> int __warpdbg_str_compare(const C *s, const C *t) {
    unsigned long n = strlen(s);
    unsigned long m = strlen(t);
    unsigned long k = n < m ? n : m;
    for (unsigned long i = 0; i < k; i++) {
        if (s[i] != t[i]) return (int)(unsigned char)s[i] - (int)(unsigned char)t[i];
    }
    long d = (long)n - (long)m;
    if (d > 2147483647L) return 2147483647;
    if (d < -2147483647L - 1) return -2147483647 - 1;
    return (int)d;
}
template <typename C> const C *__warpdbg_str_text(const C *s) {
    if (s) return s;
    return "";
}
int main() { return 0; }
"#;

/// The templates above, parsed.
pub(super) fn templates() -> HashMap<String, TemplateDef> {
    let lexed = crate::front::lexer::lex(FileId(0), TEXT, 0);
    let mut p = crate::front::parser::Parser::new(&lexed.tokens, TEXT, 0);
    let _ = p.translation_unit();
    p.take_templates().defs.into_iter().filter(|(n, _)| n.starts_with(PRELUDE)).collect()
}

/// `def` with every token at `span` (the call that instantiates it).
pub(super) fn at_call(def: &TemplateDef, span: Span) -> TemplateDef {
    let mut d = def.clone();
    d.tokens.iter_mut().for_each(|t| t.span = span);
    d.span = span;
    d
}
