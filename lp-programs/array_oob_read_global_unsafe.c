// expect: safe
// why: index 3 is one past the end of the zeroed global a[3], undefined in C for every execution (under nondet the read is arbitrary, not 0)
// expect-bounds-nondet: unsafe
// expect-bounds-error: bounds
// assumes-in-bounds: 11
int a[3];

void main() {
  int i;
  i = 3;
  if (a[i] != 0)
    ERROR: ;
}
