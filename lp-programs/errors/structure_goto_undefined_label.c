// expect: error
// error-at: 7:10
// error-kind: structure
int main(void) {
  int i = 0;
  if (i == 0)
    goto finish;
  return 0;
}
