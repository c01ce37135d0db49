// expect: safe
// why: every frame has its own locals; calls never change the caller's a, b or mine
int f(int p) {
  int a, b;
  a = 2 * p;
  b = a + 1;
  return b;
}

int g(int n) {
  int mine, t;
  mine = 3 * n;
  if (n > 0) {
    t = g(n - 1);
    assert(t == 3 * n - 3);
  }
  if (mine != 3 * n)
    ERROR: ;
  return mine;
}

void main() {
  int a, b, r;
  a = 10;
  b = 20;
  r = f(3);
  assert(a == 10 && b == 20 && r == 7);
  r = g(4);
  assert(r == 12 && a == 10 && b == 20);
}
