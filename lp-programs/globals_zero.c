// expect: safe
// why: globals without initialiser start at 0 (scalars and every array cell), k starts at 3
int g;
int h[4];
int k = 3;

int read_g() {
  return g;
}

void main() {
  int r;
  r = read_g();
  assert(r == 0);
  assert(h[0] == 0 && h[2] == 0 && h[3] == 0);
  assert(k == 3);
  g++;
  r = read_g();
  if (r != 1)
    ERROR: ;
}
