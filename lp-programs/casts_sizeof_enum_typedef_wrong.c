// expect: unsafe
// why: under the default ILP32 data model sizeof(long) is 4, so the error is reached
typedef long word;
enum { FOUR = sizeof(word) };
int main(void) {
  if (FOUR == 4 && (int)sizeof(unsigned long) == FOUR)
    reach_error();
  return 0;
}
