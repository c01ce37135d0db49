// expect: safe
// why: the only exit is the break at i >= 7, reached first with i == 7
void main() {
  int i;
  i = 0;
  while (1) {
    i++;
    if (i >= 7)
      break;
  }
  assert(i == 7);
}
