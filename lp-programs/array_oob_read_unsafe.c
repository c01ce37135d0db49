// expect: safe
// why: a[5] is out of bounds for int a[3] and every execution reads it: undefined in C, so no execution has a verdict (under nondet the read is arbitrary and can be 9)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 8
void main() {
  int a[3] = {0, 0, 0};
  if (a[5] == 9)
    ERROR: ;
}
