// expect: safe
// why: callees change only their own copies of the arguments; the parameter x shadows global x
int x;

void inc(int x) {
  x = x + 1;
}

int bump(int x) {
  x = x + 100;
  return x;
}

void main() {
  int y, z;
  y = 5;
  inc(y);
  assert(y == 5);
  z = bump(y);
  assert(y == 5 && z == 105);
  inc(x);
  assert(x == 0);
}
