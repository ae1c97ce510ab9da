// Placeholder: the SR28 reader lives here.
