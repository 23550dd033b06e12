SELECT 'first';
.quit
SELECT 'never printed';
