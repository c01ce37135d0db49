// expect: safe
// why: i-- from 10 wraps 0 to 4294967295, which ends the loop i < 20 after 11 iterations
void reach_error() {}
int main() {
  unsigned i;
  int n = 0;
  for (i = 10; i < 20; i--) {
    n++;
  }
  if (n != 11) reach_error();
  if (i != 4294967295u) reach_error();
  return 0;
}
