-- .read runs a file; errors in it name the file and line.
.read golden/sub.inc
SELECT 'back in stdin';
