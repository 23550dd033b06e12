-- args: -bail
SELECT 'before';
SELECT nosuch;
SELECT 'never printed';
