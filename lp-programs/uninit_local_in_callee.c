// expect: unsafe
// why: the callee returns its uninitialised local t, which can be any value, e.g. 42
int f() {
  int t;
  return t;
}

void main() {
  int r;
  r = f();
  if (r == 42)
    ERROR: ;
}
