/* Union-find over an array of parent indices: a set's root is its own
 * parent. Plain functions on the caller's array; nothing to free. */
#ifndef TS_UNION_FIND_H
#define TS_UNION_FIND_H

/* The root of i's set; the path to it is made to point at the root. */
static inline int ts_find_root(int *parent, int i)
{
    int r = i;
    while (parent[r] != r)
        r = parent[r];
    while (parent[i] != r) {
        int next = parent[i];
        parent[i] = r;
        i = next;
    }
    return r;
}

/* Joins the sets of a and b; the lower root keeps (so a set's root is its
 * first member in index order). */
static inline void ts_join_lower(int *parent, int a, int b)
{
    a = ts_find_root(parent, a), b = ts_find_root(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

#endif
