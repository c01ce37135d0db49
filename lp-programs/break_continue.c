// expect: safe
// why: odd i are skipped, the loop breaks at i = 8, so s = 0+2+4+6 = 12
void main() {
  int i, s;
  s = 0;
  for (i = 0; i < 10; i++) {
    if (i % 2 == 1)
      continue;
    if (i == 8)
      break;
    s += i;
  }
  assert(s == 12);
  assert(i == 8);
}
