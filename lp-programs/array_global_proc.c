// expect: safe
// why: fill(3) sets all 5 cells of the global buf to 3, so total() returns 15
int buf[5];

void fill(int v) {
  int i;
  for (i = 0; i < 5; i++)
    buf[i] = v;
}

int total() {
  int i, s;
  s = 0;
  for (i = 0; i < 5; i++)
    s = s + buf[i];
  return s;
}

void main() {
  int t;
  t = total();
  assert(t == 0);
  fill(3);
  t = total();
  assert(t == 15);
}
