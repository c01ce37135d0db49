// expect: unsafe
// why: s = 7i after each outer iteration, so s is 70000000 when the loop ends
void reach_error() {}
int main() {
  unsigned i = 0, j = 0, s = 0;
  while (i < 10000000u) {
    j = 0;
    while (j < 7u) {
      j++;
      s++;
    }
    i++;
  }
  if (s == 70000000u) reach_error();
  return 0;
}
