"""placeholder"""
def assign_work_items(commits, links, file_changes):
    raise NotImplementedError
